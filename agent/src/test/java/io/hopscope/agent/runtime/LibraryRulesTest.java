package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.instrumentation.netty.NettyInstrumentation;
import io.hopscope.agent.instrumentation.okhttp.OkHttpInstrumentation;
import io.hopscope.agent.instrumentation.reactor.ReactorInstrumentation;
import io.hopscope.agent.testing.RelocatedSamples;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.reflect.Constructor;
import java.net.URLClassLoader;
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
        new OkHttpInstrumentation(false).addRules(rules);
        return rules;
    }

    /** One of Reactor's package-private blocking subscribers, what BlockingSingleSubscriber#blockingGet runs on. */
    private static Object reactorSubscriber(String simpleName) throws Exception {
        Constructor<?> c = Class.forName("reactor.core.publisher." + simpleName).getDeclaredConstructor(Context.class);
        c.setAccessible(true);
        return c.newInstance(Context.empty());
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
        assumeThat(RelocatedSamples.built()).as("relocated samples jar at %s", RelocatedSamples.jar()).isTrue();
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
}
