package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.executors.ExecutorsInstrumentation;
import io.hopscope.agent.instrumentation.netty.NettyInstrumentation;
import io.hopscope.agent.instrumentation.okhttp.OkHttpInstrumentation;
import io.hopscope.agent.instrumentation.reactor.ReactorInstrumentation;
import io.hopscope.agent.testing.RelocatedSamples;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.reflect.Constructor;
import java.net.URLClassLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import okhttp3.internal.concurrent.TaskRunner;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.NonBlocking;
import reactor.util.context.Context;

/**
 * The library rules the runtime applies, as the libraries' instrumentations register them: which
 * threads are non-blocking, which tasks are housekeeping, what a wait without a kind is called and
 * which exceptions are timeouts. The runtime names no library: without the rules it knows none.
 */
class LibraryRulesTest {

    private static final IllegalStateException REACTOR_TIMEOUT =
            new IllegalStateException("Timeout on blocking read for 1000000000 NANOSECONDS");

    /** An event loop's thread class of an application's own, marked with Reactor's interface. */
    static class LoopThread extends Thread implements NonBlocking {
    }

    /** Marked through its superclass only. */
    static final class SubLoopThread extends LoopThread {
    }

    static final class NettySubThread extends FastThreadLocalThread {
    }

    private static LibraryRules installed() {
        LibraryRules rules = new LibraryRules();
        new ReactorInstrumentation().addRules(rules);
        new NettyInstrumentation().addRules(rules);
        new OkHttpInstrumentation().addRules(rules);
        return rules;
    }

    /** One of Reactor's package-private blocking subscribers, what BlockingSingleSubscriber#blockingGet runs on. */
    private static Object reactorSubscriber(String simpleName) throws Exception {
        Constructor<?> c = Class.forName("reactor.core.publisher." + simpleName).getDeclaredConstructor(Context.class);
        c.setAccessible(true);
        return c.newInstance(Context.empty());
    }

    /**
     * A task handed to a housekeeping executor is a library's own whatever its class (another agent's
     * context wrapper around a virtual thread's continuation); the executors rule names the virtual
     * threads' scheduler only, no other ForkJoinPool (JDK 25 with the OpenTelemetry agent: OtelTraceIdIT).
     */
    @Test
    void aTaskHandedToAHousekeepingExecutorIsALibrarysWhateverWrapsIt() {
        Executor scheduler = Runnable::run;
        Runnable wrapper = () -> { };
        LibraryRules rules = new LibraryRules();
        assertThat(rules.isHousekeeping(wrapper, scheduler)).isFalse();
        rules.addHousekeepingExecutor(e -> e == scheduler);
        assertThat(rules.isHousekeeping(wrapper, scheduler)).isTrue();
        assertThat(rules.isHousekeeping(wrapper, (Executor) Runnable::run)).isFalse();
        assertThat(rules.isHousekeeping(wrapper, null)).isFalse();

        LibraryRules jdk = new LibraryRules();
        new ExecutorsInstrumentation().addRules(jdk);
        ForkJoinPool own = new ForkJoinPool(1);
        try {
            assertThat(jdk.isHousekeeping(wrapper, own)).isFalse();
            assertThat(jdk.isHousekeeping(wrapper, ForkJoinPool.commonPool())).isFalse();
        } finally {
            own.shutdown();
        }
    }

    @Test
    void withoutRulesNoObjectIsALibrarys() throws Exception {
        LibraryRules rules = new LibraryRules();
        assertThat(rules.isNonBlockingThread(new FastThreadLocalThread())).isFalse();
        assertThat(rules.isNonBlockingThread(new LoopThread())).isFalse();
        assertThat(rules.isHousekeeping(new TaskRunner.RealBackend(Thread::new))).isFalse();
        assertThat(rules.waitKind(reactorSubscriber("BlockingMonoSubscriber"))).isEqualTo("?");
        assertThat(rules.isTimeout(REACTOR_TIMEOUT)).isFalse();
    }

    @Test
    void nettyAndReactorEventLoopThreadsAreNonBlocking() {
        LibraryRules rules = installed();
        assertThat(rules.isNonBlockingThread(new FastThreadLocalThread())).isTrue();
        assertThat(rules.isNonBlockingThread(new NettySubThread())).isTrue();
        assertThat(rules.isNonBlockingThread(new LoopThread())).isTrue();
        assertThat(rules.isNonBlockingThread(new SubLoopThread())).isTrue();
        assertThat(rules.isNonBlockingThread(new Thread())).isFalse();
    }

    @Test
    void aRelocatedNettysEventLoopThreadsAreNonBlockingToo() throws Exception {
        RelocatedSamples.need();
        LibraryRules rules = installed();
        try (URLClassLoader relocated = RelocatedSamples.loader()) {
            Thread loopThread = (Thread) Class.forName(RelocatedSamples.NETTY + ".util.concurrent.FastThreadLocalThread",
                    true, relocated).getConstructor().newInstance();
            assertThat(rules.isNonBlockingThread(loopThread)).isTrue();
            assertThat(new LibraryRules().isNonBlockingThread(loopThread)).isFalse();
        }
    }

    @Test
    void okHttpsTaskRunnerIsHousekeeping() {
        LibraryRules rules = installed();
        assertThat(rules.isHousekeeping(new TaskRunner.RealBackend(Thread::new))).isTrue();
        assertThat(rules.isHousekeeping((Runnable) () -> { })).isFalse();
    }

    @Test
    void reactorNamesItsBlockingWaitsAndTheirTimeout() throws Exception {
        LibraryRules rules = installed();
        assertThat(rules.waitKind(reactorSubscriber("BlockingMonoSubscriber"))).isEqualTo("Mono.block");
        assertThat(rules.waitKind(reactorSubscriber("BlockingFirstSubscriber"))).isEqualTo("Flux.blockFirst");
        assertThat(rules.waitKind(reactorSubscriber("BlockingLastSubscriber"))).isEqualTo("Flux.blockLast");
        assertThat(rules.waitKind(new Object())).isEqualTo("?");
        assertThat(rules.isTimeout(REACTOR_TIMEOUT)).isTrue();
        assertThat(rules.isTimeout(new IllegalStateException("Block terminated with an error"))).isFalse();
        assertThat(rules.isTimeout(new IllegalStateException())).isFalse();
    }

    /** A park is named by its blocker's class, once the parks instrumentation registered the JDK's. */
    @Test
    void aParkIsNamedByItsBlocker() {
        LibraryRules rules = new LibraryRules();
        Object condition = new java.util.concurrent.locks.ReentrantLock().newCondition();
        assertThat(rules.parkKind(condition)).isEqualTo("LockSupport.park");
        new io.hopscope.agent.instrumentation.parks.ParksInstrumentation().addRules(rules);
        assertThat(rules.parkKind(condition)).isEqualTo("Condition.await");
        // The lock itself is no blocker: its sync (ReentrantLock$NonfairSync) is.
        assertThat(rules.parkKind(new java.util.concurrent.locks.ReentrantLock())).isEqualTo("LockSupport.park");
        assertThat(rules.parkKind(null)).isEqualTo("LockSupport.park");
        assertThat(rules.parkKind(new Object())).isEqualTo("LockSupport.park");
    }
}
