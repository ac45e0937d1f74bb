import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Run as a single-file program on a JDK 21+ under the agent (requests=KnownVirtual#request): the
 * known path on virtual threads. Each request hands its work to a new thread that allocates
 * KNOWN_BYTES, sleeps SLEEP_MILLIS and (on a virtual worker) initializes a class that parks in its
 * initializer, which pins the worker to its carrier for PINNED_MILLIS; the caller blocks on the
 * result until the worker wakes it. Arguments: the scenarios, in order.
 * <ul>
 * <li>virtual-virtual: a virtual caller ("vcaller-1") hands to a virtual worker ("vworker-1") of
 *     a thread-per-task executor;
 * <li>platform-virtual: the platform main thread hands to such a virtual worker;
 * <li>virtual-platform: a virtual caller starts new Thread(r, "spawned");
 * <li>virtual-twice: a virtual caller makes two requests in a row, each allocating KNOWN_BYTES on
 *     the caller before it sleeps: the second begins in the run in which the first ended.
 * </ul>
 */
public class KnownVirtual {

    static final int KNOWN_BYTES = 1 << 20;
    static final long SLEEP_MILLIS = 30;
    static final long PINNED_MILLIS = 25;

    static volatile Object sink;

    /** Parks in its initializer; one class per scenario, each initialized once. */
    static final class PinsFirst {
        static final int VALUE = park();
    }

    static final class PinsSecond {
        static final int VALUE = park();
    }

    static int park() {
        try {
            Thread.sleep(PINNED_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    public static void main(String[] args) throws Exception {
        for (String scenario : args) {
            // The workers' executor is made and closed outside the request: closing waits for its
            // threads to end, a way back of its own whenever a worker has not ended yet, which would
            // make the request's hops depend on timing.
            try (ExecutorService w = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("vworker-", 1).factory())) {
                workers = w;
                run(scenario);
            }
            System.out.println("done " + scenario);
        }
    }

    static volatile ExecutorService workers;

    static void run(String scenario) throws Exception {
        if (scenario.equals("virtual-twice")) {
            Thread.ofVirtual().name("vcaller-1").start(() -> {
                requestQuietly("on-caller");
                requestQuietly("on-caller");
            }).join();
        } else if (scenario.startsWith("virtual-")) {
            Thread caller = Thread.ofVirtual().name("vcaller-1").start(() -> requestQuietly(scenario));
            caller.join();
        } else {
            request(scenario);
        }
        // Joined outside the request, for the same reason as the workers' executor is closed there.
        Thread t = spawned;
        if (t != null) {
            t.join();
            spawned = null;
        }
    }

    static volatile Thread spawned;

    static void requestQuietly(String scenario) {
        try {
            request(scenario);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The boundary. */
    public static int request(String scenario) throws Exception {
        switch (scenario) {
            case "virtual-virtual":
                return onVirtualWorker(() -> PinsFirst.VALUE);
            case "platform-virtual":
                return onVirtualWorker(() -> PinsSecond.VALUE);
            case "virtual-platform": {
                CompletableFuture<Integer> result = new CompletableFuture<>();
                Thread t = new Thread(() -> result.complete(work(() -> 0)), "spawned");
                t.start();
                spawned = t;
                return result.get();
            }
            case "on-caller":
                return work(() -> 0);
            default:
                throw new IllegalArgumentException("unknown scenario " + scenario);
        }
    }

    static int onVirtualWorker(java.util.function.IntSupplier pin) throws Exception {
        Future<Integer> f = workers.submit(() -> work(pin));
        return f.get();
    }

    static int work(java.util.function.IntSupplier pin) {
        byte[] known = new byte[KNOWN_BYTES];
        sink = known;
        try {
            Thread.sleep(SLEEP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return known.length + pin.getAsInt();
    }
}
