package io.hopscope.testapps;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.pool.InstrumentedPool;
import reactor.pool.PoolBuilder;
import reactor.pool.PooledRef;

/**
 * reactor-pool (the stand-alone library) with one resource: main holds it, outside any request,
 * while a caller thread's request asks for it and blocks in Mono#block; once the pool has the
 * caller's acquire pending and the caller is parked, main releases the resource, and the pool
 * delivers it to the caller's borrower on main, the thread that drains it. The caller's request
 * then gives it back. Argument: request count. Runs on every reactor-pool the rules support, 0.1
 * to 1.2 (see {@link #build}).
 */
public final class ReactorPoolApp {

    private final InstrumentedPool<StringBuilder> pool;

    ReactorPoolApp(InstrumentedPool<StringBuilder> pool) {
        this.pool = pool;
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        InstrumentedPool<StringBuilder> pool = build(PoolBuilder.from(Mono.fromSupplier(StringBuilder::new))
                .sizeBetween(0, 1));
        ReactorPoolApp app = new ReactorPoolApp(pool);
        int ok = 0;
        for (int i = 0; i < count; i++) {
            PooledRef<StringBuilder> held = pool.acquire().block();
            AtomicReference<String> result = new AtomicReference<>();
            int request = i;
            Thread caller = new Thread(() -> result.set(app.borrow(request)), "pool-caller");
            caller.start();
            // The caller's acquire is pending, and the caller waits in Mono#block: nothing else parks it.
            while (pool.metrics().pendingAcquireSize() < 1 || caller.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
            held.release().block();
            caller.join();
            if (("request " + request).equals(result.get())) {
                ok++;
            }
        }
        pool.disposeLater().block();
        System.out.println("responses ok: " + ok);
        if (ok != count) {
            System.exit(1);
        }
    }

    /**
     * The builder's pool: buildPool() since 0.2, fifo() before (removed in 1.0), the same FIFO pool.
     * No method does it in both, so it is looked up by name.
     */
    @SuppressWarnings("unchecked")
    static InstrumentedPool<StringBuilder> build(PoolBuilder<StringBuilder, ?> builder) throws Exception {
        Method build;
        try {
            build = PoolBuilder.class.getMethod("buildPool");
        } catch (NoSuchMethodException before02) {
            build = PoolBuilder.class.getMethod("fifo");
        }
        return (InstrumentedPool<StringBuilder>) build.invoke(builder);
    }

    /** The request boundary (requests=io.hopscope.testapps.ReactorPoolApp#borrow). */
    public String borrow(int request) {
        PooledRef<StringBuilder> ref = pool.acquire().block();
        StringBuilder resource = ref.poolable();
        resource.setLength(0);
        resource.append("request ").append(request);
        String text = resource.toString();
        ref.release().block();
        return text;
    }
}
