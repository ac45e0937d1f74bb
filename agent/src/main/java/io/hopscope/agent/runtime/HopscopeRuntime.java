package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.Hooks;
import io.hopscope.agent.events.HopEvent;
import io.hopscope.agent.events.NonBlockingWaitEvent;
import io.hopscope.agent.events.RequestEvent;
import io.hopscope.agent.events.SegmentEvent;
import io.hopscope.agent.events.SpanEvent;
import io.hopscope.agent.events.WaitEvent;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The agent's runtime: follows the current request per thread, carries it through executors,
 * opens and closes segments, spans and waits, and writes the JFR events. Advice reaches it only
 * through {@link Bridge}; every method here runs on an application thread, so each one is short,
 * and nothing is allocated on the paths where no request is current.
 */
public final class HopscopeRuntime implements Hooks {

    private static final AtomicLong REQUEST_IDS = new AtomicLong();
    /** Span ids are handed to threads in blocks: one shared counter update per this many spans. */
    private static final long SPAN_ID_BLOCK = 1024;
    private static final AtomicLong SPAN_ID_BLOCKS = new AtomicLong();
    private static final Object NESTED_WAIT = new Object();

    private final ThreadLocal<ThreadState> states = new ThreadLocal<>();
    /** Threads blocked in an instrumented wait right now: bounded by the number of live threads. */
    private final ConcurrentHashMap<Thread, ThreadState> waiting = new ConcurrentHashMap<>();
    /**
     * attachContext's keys (a library's own objects: the JDK HttpClient's socket channels, one per
     * connection, and its trigger events, a few per exchange), weakly held: an entry goes with its key.
     */
    private final Map<Object, HopTask.Captured> attached = Collections.synchronizedMap(new WeakHashMap<>());
    private final List<Function<Object, Object>> contextKeys = new CopyOnWriteArrayList<>();
    private final List<RequestDescriber> describers = new CopyOnWriteArrayList<>();
    private final List<AsyncAdapter> adapters = new CopyOnWriteArrayList<>();
    private final UrlRedactor redactor;
    private volatile int selfCheckHits;

    /** The spans of one request in this many are recorded; 0: none (agent option spans=). */
    private final int spanEvery;

    public HopscopeRuntime(UrlRedactor redactor, boolean cpuTime, int spanEvery) {
        this.redactor = redactor;
        this.spanEvery = spanEvery;
        ThreadMeter.wantCpuTime(cpuTime);
    }

    public void addDescriber(RequestDescriber describer) {
        describers.add(describer);
    }

    public void addAdapter(AsyncAdapter adapter) {
        adapters.add(adapter);
    }

    // ---------------------------------------------------------------- threads and segments

    private ThreadState state() {
        ThreadState s = states.get();
        if (s == null) {
            s = new ThreadState(Thread.currentThread());
            states.set(s);
        }
        return s;
    }

    private static void beginSegment(ThreadState s, String kind) {
        SegmentEvent e = s.segmentEvent;
        if (e == null) {
            e = new SegmentEvent();
            s.segmentEvent = e;
        }
        if (!e.isEnabled()) {
            return;
        }
        ThreadMeter meter = ThreadMeter.get();
        e.requestId = s.request.id;
        e.kind = kind;
        s.segmentAllocatedBytesAtStart = meter.allocatedBytes();
        s.segmentCpuNanosAtStart = meter.cpuNanos();
        s.segment = e;
        e.begin();
    }

    private static void endSegment(ThreadState s) {
        SegmentEvent e = s.segment;
        if (e == null) {
            return;
        }
        s.segment = null;
        e.end();
        ThreadMeter meter = ThreadMeter.get();
        e.allocatedBytes = meter.allocatedBytes() - s.segmentAllocatedBytesAtStart;
        e.cpuNanos = s.segmentCpuNanosAtStart < 0 ? -1 : meter.cpuNanos() - s.segmentCpuNanosAtStart;
        e.commit();
    }

    private static void clearContext(ThreadState s) {
        s.request = null;
        s.spanId = 0;
        s.childDepth = 0;
        s.spanOwner = null;
    }

    // ---------------------------------------------------------------- executors

    @Override
    public Runnable wrapRunnable(Runnable task, Object executor) {
        if (task instanceof HopTask) {
            return task;
        }
        // states.get() allocates nothing once the thread has an entry; with no current request the
        // task goes through untouched.
        ThreadState s = states.get();
        if (s == null) {
            return task;
        }
        if (s.selfCheck) {
            selfCheckHits++;
        }
        RequestState r = s.request;
        if (r == null || Housekeeping.isHousekeeping(task)) {
            return task;
        }
        return new HopTask.OfRunnable(this, task, r, s.spanId, s.childDepth, s.thread, System.nanoTime(),
                executor == null ? "?" : executor.getClass().getName());
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Callable<?> wrapCallable(Callable<?> task, Object executor) {
        if (task instanceof HopTask) {
            return task;
        }
        ThreadState s = states.get();
        if (s == null || s.request == null) {
            return task;
        }
        return new HopTask.OfCallable(this, task, s.request, s.spanId, s.childDepth, s.thread, System.nanoTime(),
                executor == null ? "?" : executor.getClass().getName());
    }

    @Override
    public Object captureContext(Object via) {
        return capture(via, System.nanoTime());
    }

    /** The current request as a Captured handed over at submitNanos, or null when none is current. */
    private HopTask.Captured capture(Object via, long submitNanos) {
        ThreadState s = states.get();
        if (s == null || s.request == null) {
            return null;
        }
        return new HopTask.Captured(this, s.request, s.spanId, s.childDepth, s.thread, submitNanos,
                via == null ? "?" : via.getClass().getName());
    }

    @Override
    public Object contextEnter(Object captured) {
        return taskStart((HopTask) captured);
    }

    /**
     * Adds a function that gives attachContext's keys the key they are remembered by (null: not
     * its kind of key): the JDK HttpClient's socket events are remembered by their channel.
     */
    public void addContextKey(Function<Object, Object> keyOf) {
        contextKeys.add(keyOf);
    }

    private Object contextKey(Object key) {
        for (Function<Object, Object> keyOf : contextKeys) {
            Object k = keyOf.apply(key);
            if (k != null) {
                return k;
            }
        }
        return key;
    }

    @Override
    public Object captureIoContext(Object via) {
        // No submit time: the thread that picks this up does so when the I/O is ready, and the
        // time until then is the wait for the I/O, not a queue (see HopTask.NO_QUEUE).
        return capture(via, HopTask.NO_QUEUE);
    }

    @Override
    public Object ioContextEnter(Object captured) {
        if (!(captured instanceof HopTask.Captured)) {
            return null;
        }
        ThreadState s = states.get();
        if (s != null && s.request != null) {
            return null; // already in a request: the outer one stays
        }
        HopTask.Captured c = (HopTask.Captured) captured;
        if (ended(c.request)) {
            // A connection outlives its exchange (an idle pooled connection's read).
            return null;
        }
        return taskStart(c);
    }

    @Override
    public void attachContext(Object key, boolean replace) {
        HopTask.Captured captured = capture(key, HopTask.NO_QUEUE);
        key = contextKey(key);
        if (captured == null) {
            if (replace) {
                attached.remove(key);
            }
            return;
        }
        if (replace) {
            attached.put(key, captured);
        } else {
            attached.compute(key, (k, held) -> held != null && !ended(held.request) ? held : captured);
        }
    }

    private static boolean ended(RequestState request) {
        synchronized (request) {
            return request.ended;
        }
    }

    @Override
    public Object attachedContextEnter(Object key) {
        return ioContextEnter(attached.get(contextKey(key)));
    }

    @Override
    public void contextExit(Object token) {
        taskEnd(token);
    }

    /** What a task found on its thread when it started, to restore when it ends. */
    private static final class TaskScope {
        final ThreadState state;
        final RequestState previousRequest;
        final long previousSpanId;
        final int previousChildDepth;
        final Object previousSpanOwner;

        TaskScope(ThreadState s) {
            state = s;
            previousRequest = s.request;
            previousSpanId = s.spanId;
            previousChildDepth = s.childDepth;
            previousSpanOwner = s.spanOwner;
        }
    }

    Object taskStart(HopTask task) {
        try {
            ThreadState s = state();
            if (s.request == task.request && s.thread == task.fromThread) {
                // Run inline on the submitting thread, in the same request: no hop, same segment.
                return null;
            }
            TaskScope scope = new TaskScope(s);
            if (s.request != null) {
                endSegment(s);
            }
            if (s.thread != task.fromThread) {
                HopEvent hop = new HopEvent();
                if (hop.isEnabled()) {
                    hop.requestId = task.request.id;
                    hop.kind = "handoff";
                    hop.fromThread = task.fromThread;
                    hop.toThread = s.thread;
                    hop.delayNanos = task.submitNanos == HopTask.NO_QUEUE ? 0 : System.nanoTime() - task.submitNanos;
                    hop.via = task.via;
                    hop.commit();
                }
            }
            s.request = task.request;
            s.spanId = task.spanId;
            s.childDepth = task.childDepth;
            s.spanOwner = null;
            beginSegment(s, "task");
            return scope;
        } catch (Throwable t) {
            AgentErrors.report("executors", t);
            return null;
        }
    }

    void taskEnd(Object token) {
        if (token == null) {
            return;
        }
        try {
            TaskScope scope = (TaskScope) token;
            ThreadState s = scope.state;
            endSegment(s);
            s.request = scope.previousRequest;
            s.spanId = scope.previousSpanId;
            s.childDepth = scope.previousChildDepth;
            s.spanOwner = scope.previousSpanOwner;
            if (s.request != null) {
                beginSegment(s, "resume");
            }
        } catch (Throwable t) {
            AgentErrors.report("executors", t);
        }
    }

    // ---------------------------------------------------------------- requests

    @Override
    public Object boundaryEnter(String boundary, Object request) {
        ThreadState s = state();
        if (s.request != null) {
            // A boundary inside a request (HttpClient.send inside a requests= method): a span.
            return s.request.spans && SPAN_PROBE.isEnabled() ? openSyncSpan(s, "boundary", boundary, null) : null;
        }
        HttpRequestInfo info = describe(request);
        long id = REQUEST_IDS.incrementAndGet();
        // Ids are consecutive, so one request in spanEvery is picked, evenly and repeatably.
        boolean spans = spanEvery == 1 || spanEvery > 1 && id % spanEvery == 0;
        RequestState r = new RequestState(id, info == null ? boundary : info.name,
                boundary, info == null ? null : info.url, s.thread, spans);
        clearContext(s);
        s.request = r;
        beginSegment(s, "start");
        return r;
    }

    @Override
    public Object boundaryExit(Object token, Object result, Throwable thrown) {
        if (token instanceof ThreadState.SpanFrame) {
            closeSyncSpan((ThreadState.SpanFrame) token);
            return result;
        }
        RequestState r = (RequestState) token;
        ThreadState s = state();
        if (thrown != null) {
            r.outcome = "error";
            r.error = thrown.getClass().getName();
        } else if (result != null) {
            int status = statusCode(result);
            if (status >= 0) {
                r.statusCode = status;
            } else {
                for (AsyncAdapter adapter : adapters) {
                    Object wrapped = adapter.endRequestOnCompletion(this, r, result);
                    if (wrapped != null) {
                        // The request goes on in its result: this thread is done with it for now.
                        if (s.request == r) {
                            endSegment(s);
                            clearContext(s);
                        }
                        return wrapped;
                    }
                }
            }
        }
        synchronized (r) {
            r.ended = true;
        }
        if (s.request == r) {
            endSegment(s);
            clearContext(s);
        }
        commitRequest(r);
        return result;
    }

    @Override
    public Object wrapCallback(Object token, Object callback) {
        if (!(token instanceof RequestState)) {
            return callback; // a nested boundary: its request goes on in the enclosing one
        }
        for (AsyncAdapter adapter : adapters) {
            Object wrapped = adapter.wrapCallback(this, (RequestState) token, callback);
            if (wrapped != null) {
                return wrapped;
            }
        }
        return callback;
    }

    /** Called by an {@link AsyncAdapter} on the thread where the request's result completed. */
    public void asyncTerminated(RequestState r, String outcome, Throwable error, Object response) {
        boolean endNow;
        synchronized (r) {
            if (r.terminated) {
                return;
            }
            r.terminated = true;
            r.outcome = outcome;
            if (error != null) {
                r.error = error.getClass().getName();
            }
            if (response != null) {
                int status = statusCode(response);
                if (status >= 0) {
                    r.statusCode = status;
                }
            }
            // A thread blocked on this result ends the request when it resumes (it includes the wake).
            endNow = r.joiner == null && !r.ended;
            if (endNow) {
                r.ended = true;
            }
        }
        if (endNow) {
            commitRequest(r);
        }
    }

    private static void commitRequest(RequestState r) {
        RequestEvent e = r.event;
        e.requestId = r.id;
        e.name = r.name;
        e.boundary = r.boundary;
        e.url = r.url;
        e.outcome = r.outcome;
        e.error = r.error;
        e.statusCode = r.statusCode;
        // Null when the request ends where it started (the event's own thread, which readers use
        // then): JDK 17 writes a Thread field through a native call, one per request saved.
        e.startThread = r.startThread == Thread.currentThread() ? null : r.startThread;
        e.commit();
    }

    private HttpRequestInfo describe(Object request) {
        if (request == null) {
            return null;
        }
        for (RequestDescriber d : describers) {
            HttpRequestInfo info = d.describe(request, redactor);
            if (info != null) {
                return info;
            }
        }
        return null;
    }

    private int statusCode(Object response) {
        for (RequestDescriber d : describers) {
            int status = d.statusCode(response);
            if (status >= 0) {
                return status;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- spans

    /**
     * Asks whether span events are recorded at all (JFR's enabled flag is per event class, so any
     * instance answers for all); never committed.
     */
    private static final SpanEvent SPAN_PROBE = new SpanEvent();
    /** Frames past this depth are not kept for reuse (a runaway recursion must not grow a thread's pool). */
    private static final int POOLED_SPAN_FRAMES = 64;

    /**
     * A span id unique in the JVM run, from this thread's block: eight threads opening a dozen spans
     * per request each would otherwise contend on one counter's cache line.
     */
    private static long nextSpanId(ThreadState s) {
        if (s.nextSpanId == s.spanIdLimit) {
            long block = SPAN_ID_BLOCKS.getAndIncrement();
            s.nextSpanId = block * SPAN_ID_BLOCK + 1;
            s.spanIdLimit = s.nextSpanId + SPAN_ID_BLOCK;
        }
        return s.nextSpanId++;
    }

    /** The next free frame of this thread's span stack, made on first use of that depth. */
    private static ThreadState.SpanFrame pushSpanFrame(ThreadState s) {
        int i = s.openSyncSpans;
        ThreadState.SpanFrame f;
        if (i < POOLED_SPAN_FRAMES) {
            if (i == s.spanFrames.length) {
                s.spanFrames = java.util.Arrays.copyOf(s.spanFrames, i * 2);
            }
            f = s.spanFrames[i];
            if (f == null) {
                f = new ThreadState.SpanFrame(s, i);
                s.spanFrames[i] = f;
            }
        } else {
            f = new ThreadState.SpanFrame(s, i);
        }
        s.openSyncSpans = i + 1;
        return f;
    }

    private static ThreadState.SpanFrame openSyncSpan(ThreadState s, String kind, String name, Object owner) {
        ThreadState.SpanFrame f = pushSpanFrame(s);
        SpanEvent e = f.event;
        e.requestId = s.request.id;
        e.spanId = nextSpanId(s);
        e.parentSpanId = s.spanId;
        e.depth = s.childDepth;
        e.kind = kind;
        // A policy's name is its class's, looked up only for a span that is written (see closeSyncSpan).
        e.name = name;
        f.named = owner;
        e.mode = "sync";
        f.previousSpanId = s.spanId;
        f.previousChildDepth = s.childDepth;
        f.previousSpanOwner = s.spanOwner;
        s.spanId = e.spanId;
        s.childDepth = e.depth + 1;
        s.spanOwner = owner;
        e.begin();
        return f;
    }

    private static void closeSyncSpan(ThreadState.SpanFrame f) {
        ThreadState s = f.state;
        if (s.openSyncSpans <= f.index) {
            return; // closed already (an exit seen twice); its event may belong to a newer span now
        }
        SpanEvent e = f.event;
        // end() sets the duration outright: a reused event still holds the last one it committed.
        e.end();
        if (e.shouldCommit()) {
            if (e.name == null) {
                e.name = f.named.getClass().getName();
            }
            e.commit();
        }
        s.openSyncSpans = f.index;
        s.spanId = f.previousSpanId;
        s.childDepth = f.previousChildDepth;
        s.spanOwner = f.previousSpanOwner;
        // A pooled frame must not keep the application's objects alive.
        f.previousSpanOwner = null;
        f.named = null;
        e.name = null;
    }

    @Override
    public Object spanEnter(String kind, Object self, boolean async) {
        ThreadState s = states.get();
        if (s == null || s.request == null || !s.request.spans || self == null || s.spanOwner == self) {
            return null;
        }
        // With no recording of spans there is nothing to time.
        if (!SPAN_PROBE.isEnabled()) {
            return null;
        }
        if (async) {
            return new AsyncSpan(s.request, kind, self.getClass().getName(), s.spanId, s.childDepth);
        }
        // Most spans are shorter than the recording's threshold and never written: no name for them.
        return openSyncSpan(s, kind, null, self);
    }

    @Override
    public Object spanExit(Object token, Object result, Throwable thrown) {
        if (token instanceof ThreadState.SpanFrame) {
            closeSyncSpan((ThreadState.SpanFrame) token);
            return result;
        }
        if (thrown != null || result == null) {
            return result;
        }
        AsyncSpan span = (AsyncSpan) token;
        for (AsyncAdapter adapter : adapters) {
            Object wrapped = adapter.spanOnSubscription(this, span, result);
            if (wrapped != null) {
                return wrapped;
            }
        }
        return result;
    }

    /** An asynchronous span that has been subscribed to; ends at the terminal signal. */
    public static final class ActiveSpan {
        final SpanEvent event;
        final ThreadState subscriber;
        final long previousSpanId;
        final int previousChildDepth;
        final Object previousSpanOwner;

        ActiveSpan(SpanEvent event, ThreadState subscriber) {
            this.event = event;
            this.subscriber = subscriber;
            previousSpanId = subscriber == null ? 0 : subscriber.spanId;
            previousChildDepth = subscriber == null ? 0 : subscriber.childDepth;
            previousSpanOwner = subscriber == null ? null : subscriber.spanOwner;
        }
    }

    /** The subscription to an async span's result: opens the span and makes it current here. */
    public ActiveSpan asyncSpanSubscribe(AsyncSpan span) {
        ThreadState s = state();
        SpanEvent e = new SpanEvent();
        e.requestId = span.request.id;
        e.spanId = nextSpanId(s);
        boolean sameRequest = s.request == span.request;
        e.parentSpanId = sameRequest ? s.spanId : span.assemblyParentSpanId;
        e.depth = sameRequest ? s.childDepth : span.assemblyDepth;
        e.kind = span.kind;
        e.name = span.name;
        e.mode = "async";
        ActiveSpan active = new ActiveSpan(e, sameRequest ? s : null);
        if (sameRequest) {
            s.spanId = e.spanId;
            s.childDepth = e.depth + 1;
            s.spanOwner = null;
        }
        e.begin();
        return active;
    }

    /** The subscribe call has returned: the span is no longer current on the subscribing thread. */
    public void asyncSpanSubscribed(ActiveSpan active) {
        ThreadState s = active.subscriber;
        if (s != null && s.thread == Thread.currentThread()) {
            s.spanId = active.previousSpanId;
            s.childDepth = active.previousChildDepth;
            s.spanOwner = active.previousSpanOwner;
        }
    }

    /** The terminal signal (or cancellation) of an async span's result. */
    public void asyncSpanEnd(ActiveSpan active) {
        active.event.commit();
    }

    /** Runs a subscription with the request current on this thread (so its handoffs are seen). */
    public Object attachForSubscribe(RequestState r) {
        ThreadState s = state();
        if (s.request != null) {
            return null;
        }
        if (s.blockDepth > 0 && s.blockJoin == null && join(s, r)) {
            // Subscribed inside a block() on this thread: the request stays here until it returns.
            return null;
        }
        s.request = r;
        beginSegment(s, "resume");
        return s;
    }

    public void detachAfterSubscribe(Object token) {
        if (token == null) {
            return;
        }
        ThreadState s = (ThreadState) token;
        endSegment(s);
        clearContext(s);
    }

    // ---------------------------------------------------------------- waits

    /** An instrumented wait in progress. */
    private static final class WaitScope {
        final ThreadState state;
        final String kind;
        final String via;
        final RequestState request;
        final boolean nonBlocking;
        final WaitEvent event;

        WaitScope(ThreadState state, String kind, String via, RequestState request, boolean nonBlocking) {
            this.state = state;
            this.kind = kind;
            this.via = via;
            this.request = request;
            this.nonBlocking = nonBlocking;
            this.event = new WaitEvent();
        }
    }

    /**
     * Mono#block entered. A request whose Mono is subscribed inside this block() (directly, or as
     * the source of the chain being blocked on) is joined by this thread: the request then ends when
     * the block returns, so that it includes the wake back. Allocates nothing.
     */
    @Override
    public Object joinEnter(Object waitedOn) {
        ThreadState s = state();
        s.blockDepth++;
        if (waitedOn instanceof RequestCarrier && s.request == null && s.blockJoin == null) {
            join(s, ((RequestCarrier) waitedOn).hopscopeRequest());
        }
        return s;
    }

    private static boolean join(ThreadState s, RequestState r) {
        synchronized (r) {
            if (r.ended || r.joiner != null) {
                return false;
            }
            r.joiner = s.thread;
        }
        clearContext(s);
        s.request = r;
        s.blockJoin = r;
        beginSegment(s, "resume");
        return true;
    }

    @Override
    public void joinExit(Object token) {
        ThreadState s = (ThreadState) token;
        if (--s.blockDepth > 0 || s.blockJoin == null) {
            return;
        }
        RequestState r = s.blockJoin;
        s.blockJoin = null;
        boolean endHere;
        synchronized (r) {
            r.joiner = null;
            endHere = r.terminated && !r.ended;
            if (endHere) {
                r.ended = true;
            }
        }
        if (s.request == r) {
            endSegment(s);
            clearContext(s);
        }
        if (endHere) {
            commitRequest(r);
        }
    }

    @Override
    public Object waitEnter(String kind, Object waitedOn) {
        ThreadState s = state();
        if (s.waitDepth > 0) {
            s.waitDepth++;
            return NESTED_WAIT;
        }
        boolean nonBlocking = isNonBlocking(s);
        if (s.request == null && !nonBlocking) {
            return null;
        }
        // A result already there at the call is no wait (Reactor's blocking subscribers are latches).
        if (waitedOn instanceof Future && ((Future<?>) waitedOn).isDone()) {
            return null;
        }
        if (waitedOn instanceof CountDownLatch && ((CountDownLatch) waitedOn).getCount() == 0) {
            return null;
        }
        if (kind == null) {
            kind = reactorWaitKind(waitedOn);
        }
        WaitScope w = new WaitScope(s, kind, waitedOn == null ? "?" : waitedOn.getClass().getName(), s.request,
                nonBlocking);
        w.event.begin();
        if (s.request != null) {
            endSegment(s);
        }
        s.waitDepth = 1;
        s.waker = null;
        waiting.put(s.thread, s);
        Bridge.WAITERS.incrementAndGet();
        return w;
    }

    @Override
    public void waitExit(Object token, Throwable thrown) {
        if (token == NESTED_WAIT) {
            state().waitDepth--;
            return;
        }
        WaitScope w = (WaitScope) token;
        ThreadState s = w.state;
        long now = System.nanoTime();
        s.waitDepth = 0;
        waiting.remove(s.thread);
        Bridge.WAITERS.decrementAndGet();
        Thread waker = s.waker;
        long wakeNanos = s.wakeNanos;
        s.waker = null;
        RequestState r = w.request;
        WaitEvent e = w.event;
        e.end();
        e.requestId = r == null ? 0 : r.id;
        e.kind = w.kind;
        e.wakerThread = waker;
        e.wakeLatencyNanos = waker == null ? -1 : now - wakeNanos;
        e.nonBlockingThread = w.nonBlocking;
        e.outcome = outcomeOf(thrown);
        e.commit();
        if (w.nonBlocking) {
            NonBlockingWaitEvent nb = new NonBlockingWaitEvent();
            nb.requestId = e.requestId;
            nb.kind = w.kind;
            nb.commit();
        }
        if (r != null && waker != null && waker != s.thread) {
            HopEvent hop = new HopEvent();
            if (hop.isEnabled()) {
                hop.requestId = r.id;
                hop.kind = "wake";
                hop.fromThread = waker;
                hop.toThread = s.thread;
                hop.delayNanos = now - wakeNanos;
                hop.via = w.via;
                hop.commit();
            }
        }
        if (r != null && s.request == r) {
            beginSegment(s, "resume");
        }
    }

    @Override
    public void onUnpark(Thread thread) {
        ThreadState s = waiting.get(thread);
        if (s != null && thread != Thread.currentThread()) {
            s.wakeNanos = System.nanoTime();
            s.waker = Thread.currentThread();
        }
    }

    /** Reactor's blocking subscribers tell which operator blocks (matched by name: no Reactor here). */
    private static String reactorWaitKind(Object subscriber) {
        String name = subscriber == null ? "" : subscriber.getClass().getName();
        if (name.endsWith("BlockingFirstSubscriber")) {
            return "Flux.blockFirst";
        }
        if (name.endsWith("BlockingLastSubscriber")) {
            return "Flux.blockLast";
        }
        return "Mono.block";
    }

    private static String outcomeOf(Throwable thrown) {
        if (thrown == null) {
            return "value";
        }
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException) {
                return "interrupted";
            }
            if (t instanceof TimeoutException) {
                return "timeout";
            }
        }
        // Reactor reports a timed-out block(Duration) this way.
        String message = thrown.getMessage();
        if (thrown instanceof IllegalStateException && message != null && message.startsWith("Timeout on blocking")) {
            return "timeout";
        }
        return "error";
    }

    private static boolean isNonBlocking(ThreadState s) {
        if (s.nonBlocking == 0) {
            s.nonBlocking = computeNonBlocking(s.thread) ? (byte) 2 : (byte) 1;
        }
        return s.nonBlocking == 2;
    }

    /**
     * Netty threads (FastThreadLocalThread, what Netty's event loops run on) and threads marked
     * with Reactor's NonBlocking interface: blocking there stalls every connection of the loop.
     * Matched by name, so neither library has to be on the agent's class path.
     */
    private static boolean computeNonBlocking(Thread thread) {
        for (Class<?> c = thread.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("io.netty.util.concurrent.FastThreadLocalThread")) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals("reactor.core.scheduler.NonBlocking")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Initialises the event classes and the thread meter (see AgentInstaller#warmUpInBackground). */
    public static void warmUp() {
        ThreadMeter.get().allocatedBytes();
        ThreadMeter.get().cpuNanos();
        new RequestEvent().isEnabled();
        new SegmentEvent().isEnabled();
        new HopEvent().isEnabled();
        new SpanEvent().isEnabled();
        new WaitEvent().isEnabled();
        new NonBlockingWaitEvent().isEnabled();
    }

    // ---------------------------------------------------------------- errors and self-check

    @Override
    public void onError(String instrumentation, Throwable error) {
        AgentErrors.report(instrumentation, error);
    }

    /** Counts executor hooks seen while the current thread runs the self-check. */
    public int selfCheck(Runnable instrumentedCall) {
        ThreadState s = state();
        int before = selfCheckHits;
        s.selfCheck = true;
        try {
            instrumentedCall.run();
        } finally {
            s.selfCheck = false;
        }
        return selfCheckHits - before;
    }
}
