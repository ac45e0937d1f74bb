package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.Hooks;
import io.hopscope.agent.events.HopEvent;
import io.hopscope.agent.events.MountsEvent;
import io.hopscope.agent.events.NonBlockingWaitEvent;
import io.hopscope.agent.events.RequestEvent;
import io.hopscope.agent.events.RequestStartEvent;
import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;
import io.hopscope.agent.events.WaitEvent;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The agent's runtime, as advice sees it through {@link Bridge}: each hook forwards to the part that
 * does the work ({@link Handoffs}, {@link Requests}, {@link Spans}, {@link Waits}), and the
 * instrumentations register their libraries' helpers here at install time. Every hook runs on an
 * application thread; the parts are final classes held in final fields, so each forward is a direct
 * call the JIT inlines into the bridge, and nothing is allocated where no request is current.
 */
public final class HopscopeRuntime implements Hooks {

    private final LibraryRules rules = new LibraryRules();
    private final List<AsyncAdapter> adapters = new CopyOnWriteArrayList<>();
    private final Handoffs handoffs = new Handoffs(rules);
    private final Requests requests;
    private final Spans spans = new Spans(adapters);
    private final Waits waits = new Waits(rules);

    public HopscopeRuntime(UrlRedactor redactor, boolean cpuTime, int spanEvery) {
        this.requests = new Requests(adapters, redactor, spanEvery);
        ThreadMeter.wantCpuTime(cpuTime);
    }

    // ---------------------------------------------------------------- registration

    public void addDescriber(RequestDescriber describer) {
        requests.addDescriber(describer);
    }

    public void addAdapter(AsyncAdapter adapter) {
        adapters.add(adapter);
    }

    /**
     * Adds a function that gives attachContext's keys the key they are remembered by (null: not
     * its kind of key): the JDK HttpClient's socket events are remembered by their channel.
     */
    public void addContextKey(Function<Object, Object> keyOf) {
        handoffs.addContextKey(keyOf);
    }

    /** The libraries' rules (thread classes, housekeeping tasks, wait kinds, timeouts), to add to. */
    public LibraryRules rules() {
        return rules;
    }

    // ---------------------------------------------------------------- executors and context

    @Override
    public Runnable wrapRunnable(Runnable task, Object executor) {
        return handoffs.wrapRunnable(task, executor);
    }

    @Override
    public Callable<?> wrapCallable(Callable<?> task, Object executor) {
        return handoffs.wrapCallable(task, executor);
    }

    @Override
    public Collection<?> wrapCallables(Collection<?> tasks, Object executor) {
        return handoffs.wrapCallables(tasks, executor);
    }

    @Override
    public void attachTask(Object task, Object via) {
        handoffs.attachTask(task, via);
    }

    @Override
    public void attachThread(Thread thread) {
        handoffs.attachThread(thread);
    }

    @Override
    public void virtualThreadSubmitted(Thread thread) {
        Carriers.submitted(thread);
    }

    @Override
    public Object mountEnter(Thread thread) {
        return Carriers.mountEnter(thread);
    }

    @Override
    public void mountExit(Object token, Thread thread) {
        Carriers.mountExit(token, thread);
    }

    @Override
    public void virtualThreadEnded(Thread thread) {
        Carriers.released(thread);
    }

    /** How to read the current virtual thread's carrier (Thread.currentCarrierThread), or null. */
    public void readCurrentCarrier(java.util.function.Supplier<Thread> carrier) {
        Carriers.readCurrentCarrier(carrier);
    }

    /** How to read a platform thread's Runnable, or null where it cannot be read (see Handoffs#attachThread). */
    public void readThreadTargets(Function<Thread, Object> targetOf) {
        handoffs.readThreadTargets(targetOf);
    }

    @Override
    public Object attachedTaskEnter(Object task) {
        return handoffs.attachedTaskEnter(task);
    }

    @Override
    public Object attachedVirtualThreadEnter(Thread thread, Runnable task) {
        return handoffs.attachedVirtualThreadEnter(thread, task);
    }

    @Override
    public Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos) {
        return handoffs.wrapScheduled(task, executor, delayNanos, periodNanos);
    }

    @Override
    public Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos) {
        return handoffs.wrapScheduledCallable(task, executor, delayNanos);
    }

    @Override
    public void bindFuture(Object task, Object future) {
        Handoffs.bindFuture(task, future);
    }

    @Override
    public Object captureContext(Object via) {
        return handoffs.capture(via, System.nanoTime());
    }

    @Override
    public Object contextEnter(Object captured) {
        return handoffs.taskStart((HopTask) captured);
    }

    @Override
    public void contextExit(Object token) {
        handoffs.taskEnd(token);
    }

    @Override
    public Object captureIoContext(Object via) {
        // No submit time: the thread that picks this up does so when the I/O is ready, and the
        // time until then is the wait for the I/O, not a queue (see HopTask.NO_QUEUE).
        return handoffs.capture(via, HopTask.NO_QUEUE);
    }

    @Override
    public Object ioContextEnter(Object captured) {
        return handoffs.ioContextEnter(captured);
    }

    @Override
    public void attachContext(Object key, boolean replace) {
        handoffs.attachContext(key, replace);
    }

    @Override
    public Object attachedContextEnter(Object key) {
        return handoffs.attachedContextEnter(key);
    }

    // ---------------------------------------------------------------- requests and spans

    @Override
    public Object boundaryEnter(String boundary, Object request) {
        return requests.boundaryEnter(boundary, request);
    }

    @Override
    public Object boundaryExit(Object token, Object result, Throwable thrown) {
        return requests.boundaryExit(token, result, thrown);
    }

    @Override
    public Object wrapCallback(Object token, Object callback) {
        return requests.wrapCallback(token, callback);
    }

    @Override
    public Object spanEnter(String kind, Object self, boolean async) {
        return spans.spanEnter(kind, self, async);
    }

    @Override
    public Object spanExit(Object token, Object result, Throwable thrown) {
        return spans.spanExit(token, result, thrown);
    }

    // ---------------------------------------------------------------- waits

    @Override
    public Object monoBlockEnter(Object mono) {
        return Waits.monoBlockEnter(mono);
    }

    @Override
    public void monoBlockExit(Object token) {
        Waits.monoBlockExit(token);
    }

    @Override
    public Object waitEnter(String kind, Object waitedOn) {
        return waits.waitEnter(kind, waitedOn);
    }

    @Override
    public void waitExit(Object token, Throwable thrown) {
        waits.waitExit(token, thrown);
    }

    @Override
    public void onUnpark(Thread thread) {
        waits.onUnpark(thread);
    }

    @Override
    public Object parkEnter(Object blocker) {
        return waits.parkEnter(blocker);
    }

    @Override
    public void parkExit(Object token) {
        waits.parkExit(token);
    }

    @Override
    public void onComplete(Object result) {
        Waits.onComplete(result);
    }

    // ---------------------------------------------------------------- errors, self-check, warm-up

    @Override
    public void onError(String instrumentation, Throwable error) {
        AgentErrors.report(instrumentation, error);
    }

    /** Counts executor hooks seen while the current thread runs the self-check. */
    public int selfCheck(Runnable instrumentedCall) {
        return handoffs.selfCheck(instrumentedCall);
    }

    /** Initialises the event classes and the thread meter (see AgentInstaller#warmUpInBackground). */
    public static void warmUp() {
        ThreadMeter.get().allocatedBytes();
        ThreadMeter.get().cpuNanos();
        new RequestEvent().isEnabled();
        new RequestStartEvent().isEnabled();
        new SegmentEvent().isEnabled();
        new HopEvent().isEnabled();
        new SpanEvent().isEnabled();
        new WaitEvent().isEnabled();
        new NonBlockingWaitEvent().isEnabled();
        new MountsEvent().isEnabled();
        new io.hopscope.agent.events.AgentWorkEvent().isEnabled();
    }
}
