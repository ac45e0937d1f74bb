package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.netty.NettyInstrumentation;
import io.netty.util.concurrent.DefaultEventExecutor;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Attached tasks (fork/join tasks): remembered only in a request, and counted in
 * Bridge.PENDING_TASKS until they run, so that the check every such task in the JVM makes when it
 * runs falls back to one volatile read. Tasks handed to an executor: a library's housekeeping,
 * known by the task or by the executor, is never wrapped, whichever hook hands it over. A server's
 * task handed over without its executor is its hand-over where it reaches one; a server's
 * hand-over after the request on its thread has ended begins a request of its own. Work a
 * library does for an object it attached a request to enters that request, putting aside the one
 * the thread is in.
 */
class HandoffsTest {

    private final LibraryRules rules = new LibraryRules();
    private final Handoffs handoffs = new Handoffs(rules, new Carriers());
    private final ThreadState self = ThreadContexts.state();
    private int pendingBefore;

    @BeforeEach
    void enterRequest() {
        pendingBefore = Bridge.PENDING_TASKS.get();
        self.request = new RequestState(42, "internal", "test", "HandoffsTest", null, Thread.currentThread(), false, null);
    }

    @AfterEach
    void leaveRequest() {
        self.request = null;
    }

    @Test
    void anEventLoopsOwnRunIsNoTaskOfTheRequestThatStartedIt() {
        new NettyInstrumentation().addRules(rules);
        // The loop's run, as Netty hands it to the executor that starts the loop's thread.
        AtomicReference<Runnable> loopRun = new AtomicReference<>();
        DefaultEventExecutor loop = new DefaultEventExecutor(loopRun::set);
        loop.execute(() -> { });
        assertThat(loopRun.get()).as("the run of the loop, started by its first task").isNotNull();
        Runnable plain = () -> { };
        Thread[] started = {new Thread(loopRun.get()), new Thread(plain)};
        handoffs.readThreadTargets(t -> t == started[0] ? loopRun.get() : plain);
        handoffs.attachThread(started[0]);
        assertThat(Bridge.PENDING_TASKS.get()).as("a plain Thread running the loop, from an application's factory")
                .isEqualTo(pendingBefore);
        handoffs.attachThread(started[1]);
        assertThat(Bridge.PENDING_TASKS.get()).as("a plain Thread with a task of the request").isEqualTo(pendingBefore + 1);
        handoffs.attachedTaskEnter(started[1]); // taken back: the count the other tests start from
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore);
        loop.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Test
    void nothingIsRememberedOutsideARequest() {
        self.request = null;
        Object task = new Object();
        handoffs.attachTask(task, null);
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore);
        assertThat(handoffs.attachedTaskEnter(task)).isNull();
    }

    @Test
    void aTaskIsCountedUntilItRunsOnce() throws Exception {
        Object task = new Object();
        handoffs.attachTask(task, null);
        handoffs.attachTask(task, null); // submitted twice (an advised method calling another)
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore + 1);
        Object[] tokens = new Object[2];
        onAnotherThread(() -> {
            tokens[0] = handoffs.attachedTaskEnter(task);
            handoffs.taskEnd(tokens[0]);
            tokens[1] = handoffs.attachedTaskEnter(task);
        });
        assertThat(tokens[0]).as("the task's run").isNotNull();
        assertThat(tokens[1]).as("a second run").isNull();
        assertThat(Bridge.PENDING_TASKS.get()).isEqualTo(pendingBefore);
    }

    @Test
    void aHousekeepingExecutorsTaskIsNeverWrapped() {
        ForkJoinPool housekeeping = new ForkJoinPool(1);
        ForkJoinPool application = new ForkJoinPool(1);
        try {
            rules.addHousekeepingExecutor(executor -> executor == housekeeping);
            assertWrapped(application, true);
            assertWrapped(housekeeping, false);
        } finally {
            housekeeping.shutdown();
            application.shutdown();
        }
    }

    @Test
    void aHousekeepingTaskIsNeverWrapped() {
        ForkJoinPool pool = new ForkJoinPool(1);
        try {
            rules.addHousekeepingTask(HandoffsTest.class.getName() + "$Housekeeping");
            assertThat(handoffs.wrapCallable(new Housekeeping(), pool)).as("wrapCallable").isInstanceOf(Housekeeping.class);
            assertThat(handoffs.wrapRunnable(new Housekeeping(), pool)).as("wrapRunnable").isInstanceOf(Housekeeping.class);
            assertThat(handoffs.wrapScheduledCallable(new Housekeeping(), pool, 1))
                    .as("wrapScheduledCallable").isInstanceOf(Housekeeping.class);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aServerTaskWithoutItsExecutorIsHandedOverWhereItReachesOne() {
        Runnable task = () -> { };
        Runnable other = () -> { };
        Worker worker = new Worker();
        assertThat(handoffs.serverTask(task, null)).as("no executor named yet: not wrapped").isSameAs(task);
        Runnable unrelated = handoffs.wrapRunnable(other, worker);
        assertThat(((HopTask) unrelated).serverQueue).as("another task handed over meanwhile").isFalse();
        Runnable wrapped = handoffs.wrapRunnable(task, worker);
        assertThat(wrapped).isInstanceOf(HopTask.OfRunnable.class);
        assertThat(((HopTask) wrapped).serverQueue).as("the server's hand-over").isTrue();
        assertThat(((HopTask) wrapped).via).isEqualTo(Worker.class.getName());
        assertThat(((HopTask) handoffs.wrapRunnable(task, worker)).serverQueue).as("handed over again").isFalse();
    }

    @Test
    void aServerTaskWithoutItsExecutorBeforeAnyRequestIsItsHandOver() {
        self.request = null;
        Runnable task = () -> { };
        assertThat(handoffs.serverTask(task, null)).isSameAs(task);
        assertThat(handoffs.wrapRunnable(task, new Worker())).isInstanceOf(HopTask.Inbound.class);
        assertThat(handoffs.wrapRunnable(task, new Worker())).as("once").isSameAs(task);
    }

    @Test
    void aServerHandOverAfterTheRequestEndedIsAHandOverOfItsOwn() {
        rules.addServerQueueTask(HandoffsTest.class.getName() + "$ServerTask");
        Runnable inRequest = handoffs.wrapRunnable(new ServerTask(), null);
        assertThat(inRequest).as("handed over in the request: a hop of it").isInstanceOf(HopTask.OfRunnable.class);
        assertThat(((HopTask) inRequest).serverQueue).isTrue();
        self.request.markEnded();
        assertThat(handoffs.wrapRunnable(new ServerTask(), null))
                .as("handed over after it ended (a connection's next request)").isInstanceOf(HopTask.Inbound.class);
        Runnable other = () -> { };
        assertThat(handoffs.wrapRunnable(other, null)).as("any other task still carries the request")
                .isInstanceOf(HopTask.OfRunnable.class);
    }

    /** A server's hand-over of an inbound request, by its class name. */
    private static final class ServerTask implements Runnable {
        @Override
        public void run() {
        }
    }

    @Test
    void aSwitchEntersTheAttachedRequestWhateverTheThreadIsInAndPutsThatOneBack() throws Exception {
        Object key = new Object();
        RequestState attachedIn = self.request;
        handoffs.attachContext(key, true);
        RequestState other = new RequestState(43, "server", "other", "HandoffsTest", null, Thread.currentThread(), false,
                null);
        Object[] seen = new Object[4];
        onAnotherThread(() -> {
            ThreadState s = ThreadContexts.state();
            s.request = other;
            Object token = handoffs.attachedContextSwitch(key);
            seen[0] = s.request;
            seen[1] = handoffs.attachedContextSwitch(key);
            handoffs.taskEnd(token);
            seen[2] = s.request;
            s.request = null;
        });
        assertThat(seen[0]).as("in the attached request").isSameAs(attachedIn);
        assertThat(seen[1]).as("a switch into the request the thread is in").isNull();
        assertThat(seen[2]).as("the request put aside, back").isSameAs(other);
        attachedIn.markEnded();
        onAnotherThread(() -> seen[3] = handoffs.attachedContextSwitch(key));
        assertThat(seen[3]).as("a switch into an ended request").isNull();
    }

    /** Each executor hook, in the request, wraps a task handed to {@code executor} or not. */
    private void assertWrapped(Object executor, boolean wrapped) {
        Runnable runnable = () -> { };
        Callable<Object> callable = () -> null;
        assertThat(handoffs.wrapRunnable(runnable, executor) != runnable).as("wrapRunnable").isEqualTo(wrapped);
        assertThat(handoffs.wrapScheduled(runnable, executor, 1, 0) != runnable).as("wrapScheduled").isEqualTo(wrapped);
        assertThat(handoffs.wrapCallable(callable, executor) != callable).as("wrapCallable").isEqualTo(wrapped);
        assertThat(handoffs.wrapScheduledCallable(callable, executor, 1) != callable)
                .as("wrapScheduledCallable").isEqualTo(wrapped);
        assertThat(handoffs.wrapCallables(List.of(callable), executor).iterator().next() != callable)
                .as("wrapCallables").isEqualTo(wrapped);
    }

    /** An executor, by its class name. */
    private static final class Worker implements Executor {
        @Override
        public void execute(Runnable command) {
            command.run();
        }
    }

    /** A task of a library's own, by its class name. */
    private static final class Housekeeping implements Runnable, Callable<Object> {
        @Override
        public void run() {
        }

        @Override
        public Object call() {
            return null;
        }
    }

    private static void onAnotherThread(Runnable work) throws InterruptedException {
        Thread worker = new Thread(work, "handoffs-test-worker");
        worker.start();
        worker.join();
    }
}
