package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.HandoffHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The way back to a caller that drains an executor of its own, in each order of the caller's look,
 * its park and the response, driven through the runtime's hooks step by step on two threads
 * ({@code caller}, {@code loop}), each step done before the next begins: no clock, no race. The
 * hooks are those the advice calls (a task wrapped by the executor's execute, its run, a park's
 * enter and exit, an unpark); a test reads the Hop and Wait events they write.
 */
class WayBackTest {

    private static final AtomicLong IDS = new AtomicLong(7_000);

    @TempDir
    Path dir;

    private final LibraryRules rules = new LibraryRules();
    private final Handoffs handoffs = new Handoffs(rules, new Carriers());
    private final Waits waits = new Waits(rules);
    /** The caller's own executor (its tasks' executor, its parks' blocker). */
    private final Object callerRuns = new Object();
    private final Object writeQueue = new Object();
    private ExecutorService caller;
    private ExecutorService loop;
    private Recording recording;
    private RequestState request;
    private HandoffHooks installed;

    @BeforeEach
    void start() throws Exception {
        // A wrapped task starts and ends through the Bridge (HopTask#run), as in an agent's JVM.
        installed = Bridge.handoffs;
        Bridge.handoffs = handoffs;
        caller = Executors.newSingleThreadExecutor(r -> new Thread(r, "caller"));
        loop = Executors.newSingleThreadExecutor(r -> new Thread(r, "loop"));
        recording = new Recording();
        recording.enable("hopscope.Hop");
        recording.enable("hopscope.Wait");
        recording.start();
        request = newRequest();
        on(caller, () -> ThreadContexts.state().request = request);
    }

    @AfterEach
    void stop() {
        Bridge.handoffs = installed;
        recording.close();
        caller.shutdownNow();
        loop.shutdownNow();
    }

    @Test
    void aTaskQueuedBeforeTheCallerLooksIsAReturn() throws Exception {
        Runnable response = queuedByTheLoop();
        on(caller, response);
        assertThat(hops()).containsExactly("return loop->caller");
        assertThat(waits()).isEmpty();
    }

    @Test
    void aCallerParkedBeforeTheTaskIsWokenOnce() throws Exception {
        Object park = on(caller, () -> waits.parkEnter(callerRuns));
        Runnable response = queuedByTheLoop();
        unparkFromTheLoop();
        on(caller, () -> waits.parkExit(park));
        on(caller, response); // came with the wake
        assertThat(hops()).containsExactly("wake loop->caller");
        assertThat(waits()).containsExactly("LockSupport.park woken by loop");
    }

    @Test
    void aResponseQueuedAndUnparkedBetweenTheLookAndTheParkIsAReturn() throws Exception {
        Runnable response = queuedByTheLoop();
        unparkFromTheLoop(); // the caller is not parked yet: a permit
        Object park = on(caller, () -> waits.parkEnter(callerRuns));
        on(caller, () -> waits.parkExit(park)); // returns at once, no waker seen
        on(caller, response);
        assertThat(hops()).containsExactly("return loop->caller");
        assertThat(waits()).isEmpty();
    }

    @Test
    void aResponseInPiecesIsOneWayBackParkedOrNot() throws Exception {
        on(caller, queuedByTheLoop()); // the first piece was there: the way back
        Object park = on(caller, () -> waits.parkEnter(callerRuns));
        Runnable second = queuedByTheLoop();
        unparkFromTheLoop();
        on(caller, () -> waits.parkExit(park));
        on(caller, second);
        on(caller, queuedByTheLoop());
        assertThat(hops()).containsExactly("return loop->caller");
        assertThat(waits()).as("the caller's wait for the second piece").containsExactly("LockSupport.park woken by loop");
    }

    @Test
    void aHandOverAfterTheWayBackOpensAnother() throws Exception {
        on(caller, queuedByTheLoop());
        Runnable again = on(caller, () -> handoffs.wrapRunnable(() -> { }, loop));
        on(loop, again);
        on(caller, queuedByTheLoop());
        assertThat(hops()).containsExactly("return loop->caller", "handoff caller->loop", "return loop->caller");
    }

    @Test
    void aHandOverBeforeTheWayBackOpensNone() throws Exception {
        Runnable sentFirst = on(caller, () -> handoffs.wrapRunnable(() -> { }, loop));
        on(caller, queuedByTheLoop());
        on(loop, sentFirst); // queued before the way back, run after it
        on(caller, queuedByTheLoop());
        assertThat(hops()).containsExactly("return loop->caller", "handoff caller->loop");
    }

    @Test
    void aTaskWhoseRequestEndedIsNone() throws Exception {
        Runnable late = queuedByTheLoop();
        request.markEnded();
        RequestState next = newRequest();
        on(caller, () -> ThreadContexts.state().request = next);
        on(caller, late);
        assertThat(hops()).isEmpty();
        assertThat(hopsOf(next)).isEmpty();
    }

    @Test
    void theCommandsOneFlushDrainsAreOneHandoff() throws Exception {
        Object first = new Object();
        Object second = new Object();
        on(caller, () -> {
            handoffs.attachTask(first, writeQueue);
            handoffs.attachTask(second, writeQueue);
        });
        // The loop's flush, a task of another request (the one before, which scheduled it).
        RequestState before = newRequest();
        Runnable flush = on(loop, () -> {
            ThreadContexts.state().request = before;
            Runnable wrapped = handoffs.wrapRunnable(() -> {
                handoffs.taskEnd(handoffs.attachedTaskEnter(first));
                handoffs.taskEnd(handoffs.attachedTaskEnter(second));
            }, loop);
            ThreadContexts.state().request = null;
            return wrapped;
        });
        on(loop, flush);
        assertThat(hops()).containsExactly("handoff caller->loop");
        assertThat(hopsOf(before)).isEmpty();
    }

    /** The loop, working on the request, unparks the caller (after queueing a callback). */
    private void unparkFromTheLoop() throws Exception {
        Thread callerThread = thread(caller);
        on(loop, () -> {
            ThreadState s = ThreadContexts.state();
            s.request = request;
            waits.onUnpark(callerThread);
            s.request = null;
        });
    }

    /** A response callback the loop, working on the request, queues in the caller's executor. */
    private Runnable queuedByTheLoop() throws Exception {
        return on(loop, () -> {
            ThreadState s = ThreadContexts.state();
            s.request = request;
            Runnable task = handoffs.wrapRunnable(() -> { }, callerRuns);
            s.request = null;
            return task;
        });
    }

    private RequestState newRequest() {
        return new RequestState(IDS.incrementAndGet(), "internal", "test", "WayBackTest", null, null, false, null);
    }

    private static void on(ExecutorService thread, Runnable step) throws Exception {
        thread.submit(step).get(10, TimeUnit.SECONDS);
    }

    private static <T> T on(ExecutorService thread, Callable<T> step) throws Exception {
        return thread.submit(step).get(10, TimeUnit.SECONDS);
    }

    private static Thread thread(ExecutorService executor) throws Exception {
        return on(executor, Thread::currentThread);
    }

    private List<String> hops() throws Exception {
        return hopsOf(request);
    }

    private List<String> hopsOf(RequestState r) throws Exception {
        List<String> hops = new ArrayList<>();
        for (RecordedEvent e : events("hopscope.Hop", r)) {
            RecordedThread to = e.getValue("toThread");
            hops.add(e.getString("kind") + " " + e.<RecordedThread>getValue("fromThread").getJavaName() + "->"
                    + (to == null ? e.getThread() : to).getJavaName());
        }
        return hops;
    }

    private List<String> waits() throws Exception {
        List<String> waits = new ArrayList<>();
        for (RecordedEvent e : events("hopscope.Wait", request)) {
            waits.add(e.getString("kind") + " woken by " + e.<RecordedThread>getValue("wakerThread").getJavaName());
        }
        return waits;
    }

    private List<RecordedEvent> events(String type, RequestState r) throws Exception {
        Path file = dir.resolve("way-back-" + System.nanoTime() + ".jfr");
        recording.dump(file);
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals(type) && e.getLong("requestId") == r.id) {
                events.add(e);
            }
        }
        events.sort(java.util.Comparator.comparing(RecordedEvent::getStartTime));
        return events;
    }
}
