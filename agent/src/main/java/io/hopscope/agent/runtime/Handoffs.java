package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.bootstrap.HandoffHooks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Carries the current request from one thread to another: tasks handed to executors, and work a
 * library hands over in its own objects (a pool's borrower, a channel's next read, a selector's
 * event). Where the work starts on another thread it records the hop and opens a task segment.
 * The submit side runs on every executor call in the JVM: with no request current it does one
 * ThreadLocal lookup and one ClassValue read (LibraryRules#isServerQueueTask), and allocates
 * nothing unless the task is a server's hand-over. It implements the hand-over hooks itself: the Bridge
 * calls it straight.
 */
final class Handoffs implements HandoffHooks {

    /**
     * attachContext's keys (a library's own objects: the JDK HttpClient's socket channels, one per
     * connection, and its trigger events, a few per exchange), weakly held: an entry goes with its key.
     */
    private final Map<Object, HopTask.Captured> attached = Collections.synchronizedMap(new WeakHashMap<>());
    /**
     * attachTask's tasks (fork/join tasks, threads) handed over in a request, until they run; weakly
     * held, so a task dropped unrun goes with it. Bridge.PENDING_TASKS counts the entries put and
     * not taken, so that no task looks here while there is none.
     */
    private final Map<Object, HopTask.Captured> tasks = Collections.synchronizedMap(new WeakHashMap<>());
    /** Reads a platform thread's Runnable; null until the threads instrumentation sets it. */
    private volatile Function<Thread, Object> threadTargets;
    private final List<Function<Object, Object>> contextKeys = new CopyOnWriteArrayList<>();
    private final LibraryRules rules;
    private final Carriers carriers;
    private volatile int selfCheckHits;

    Handoffs(LibraryRules rules, Carriers carriers) {
        this.rules = rules;
        this.carriers = carriers;
    }

    void addContextKey(Function<Object, Object> keyOf) {
        contextKeys.add(keyOf);
    }

    // ---------------------------------------------------------------- submitting side

    @Override
    public Runnable wrapRunnable(Runnable task, Object executor) {
        if (task instanceof HopTask || task instanceof HopTask.Inbound) {
            return task;
        }
        ThreadState s = ThreadContexts.current();
        if (s == null) {
            return rules.isServerQueueTask(task) ? inbound(task, executor) : task;
        }
        if (s.selfCheck) {
            selfCheckHits++;
        }
        boolean handedOver = s.serverTask == task;
        if (handedOver) {
            s.serverTask = null;
        }
        RequestState r = s.request;
        if (r == null) {
            return handedOver || rules.isServerQueueTask(task) ? inbound(task, executor) : task;
        }
        if (rules.isHousekeeping(task, executor)) {
            return task;
        }
        // A server's own queueing of a hand-over (ServerHooks#serverQueueEnter) makes this task what
        // carries it to the server's executor.
        boolean serverQueue = handedOver || s.serverQueueing > 0 || rules.isServerQueueTask(task);
        if (serverQueue && r.hasEnded()) {
            // The server hands over the next request of a connection on a thread whose request has
            // just ended there (Jetty's completion of one request dispatching the pipelined next):
            // that request is not this one's, and begins at this hand-over.
            return inbound(task, executor);
        }
        HopTask.OfRunnable wrapped = new HopTask.OfRunnable(task, r, s.spanId, s.childDepth, s,
                System.nanoTime(), executor == null ? "?" : executor.getClass().getName());
        wrapped.serverQueue = serverQueue;
        wrapped.handedToExecutor = true;
        return wrapped;
    }

    /**
     * Whether a task being queued is a server's hand-over: its class is one (LibraryRules), or it is
     * one already wrapped.
     */
    boolean isServerQueueTask(Object task) {
        return task instanceof HopTask ? ((HopTask) task).serverQueue
                : task instanceof HopTask.Inbound || rules.isServerQueueTask(task);
    }

    /**
     * A task a server hands over whatever its class (ServerHooks#wrapServerTask: Undertow's dispatch
     * to a worker): in a request, a hop out of the server's queue; before one, its hand-over. Without
     * an executor (Undertow's dispatch to its default worker, which it picks only when it hands the
     * task over) it is marked on this thread instead, and wrapped as such by the hook of the executor
     * it is handed to next here (wrapRunnable), with that executor's class and at that moment.
     */
    Runnable serverTask(Runnable task, Object executor) {
        if (task instanceof HopTask || task instanceof HopTask.Inbound) {
            if (task instanceof HopTask) {
                ((HopTask) task).serverQueue = true;
            }
            return task;
        }
        if (executor == null) {
            ThreadContexts.state().serverTask = task;
            return task;
        }
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null) {
            return inbound(task, executor);
        }
        HopTask.OfRunnable wrapped = new HopTask.OfRunnable(task, s.request, s.spanId, s.childDepth, s,
                System.nanoTime(), executor == null ? "?" : executor.getClass().getName());
        wrapped.serverQueue = true;
        wrapped.handedToExecutor = true;
        return wrapped;
    }

    /** A server's task handed over before any request began: see HopTask.Inbound. */
    private static Runnable inbound(Runnable task, Object executor) {
        return new HopTask.Inbound(task, Thread.currentThread(), System.nanoTime(),
                executor == null ? "?" : executor.getClass().getName());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Callable<?> wrapCallable(Callable<?> task, Object executor) {
        if (task instanceof HopTask) {
            return task;
        }
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || rules.isHousekeeping(task, executor)) {
            return task;
        }
        HopTask.OfCallable<?> wrapped = new HopTask.OfCallable(task, s.request, s.spanId, s.childDepth, s,
                System.nanoTime(), executor == null ? "?" : executor.getClass().getName());
        wrapped.handedToExecutor = true;
        return wrapped;
    }

    /** invokeAll/invokeAny's tasks, each wrapped, in a new collection; the same one when no request is current. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public Collection<?> wrapCallables(Collection<?> tasks, Object executor) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || tasks == null) {
            return tasks;
        }
        List<Object> wrapped = new ArrayList<>(tasks.size());
        for (Object task : tasks) {
            wrapped.add(task instanceof Callable ? wrapCallable((Callable<?>) task, executor) : task);
        }
        return wrapped;
    }

    /** wrapRunnable for a scheduler: due delayNanos from now, then every periodNanos (see HopTask#scheduled). */
    @Override
    public Runnable wrapScheduled(Runnable task, Object executor, long delayNanos, long periodNanos) {
        Runnable wrapped = wrapRunnable(task, executor);
        if (wrapped != task) {
            ((HopTask) wrapped).scheduled(delayNanos, periodNanos);
        }
        return wrapped;
    }

    @Override
    public Callable<?> wrapScheduledCallable(Callable<?> task, Object executor, long delayNanos) {
        Callable<?> wrapped = wrapCallable(task, executor);
        if (wrapped != task) {
            ((HopTask) wrapped).scheduled(delayNanos, 0);
        }
        return wrapped;
    }

    /** {@code future} runs {@code task}: a wrapped task records the future's completion (HopTask#completing). */
    @Override
    public void bindFuture(Object task, Object future) {
        if (task instanceof HopTask) {
            ((HopTask) task).future = future;
        }
    }

    /** Remembers the current request with a task handed to {@code via} that cannot be wrapped. */
    @Override
    public void attachTask(Object task, Object via) {
        // A fork goes to the forking worker's pool, or the common pool: a ForkJoinPool either way.
        HopTask.Captured captured = capture(via == null ? "java.util.concurrent.ForkJoinPool" : via.getClass().getName(),
                System.nanoTime());
        if (captured != null && task instanceof Thread) {
            captured.future = task; // its end is recorded as the completion its joiners wait for
        }
        if (captured != null && tasks.put(task, captured) == null) {
            Bridge.PENDING_TASKS.incrementAndGet();
        }
    }

    void readThreadTargets(Function<Thread, Object> targetOf) {
        threadTargets = targetOf;
    }

    /**
     * A thread is started: remembered with the current request when its run is one task of it. A
     * virtual thread's is. A platform thread's is when it is a plain java.lang.Thread (a subclass
     * runs its own loop: a fork/join worker, an event loop, a selector) whose Runnable is neither a
     * task that carries the request already nor a library's worker loop (a pool's Worker, which a
     * pool starts inside whichever request made it grow: housekeeping rules).
     */
    @Override
    public void attachThread(Thread thread) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null) {
            return;
        }
        Class<?> type = thread.getClass();
        if (type != Thread.class) {
            String name = type.getName();
            if (name.equals("java.lang.VirtualThread")) {
                if (rules.isHousekeepingThread(thread)) {
                    return;
                }
                attachTask(thread, thread);
                carriers.started(thread, s.request);
            } else if (name.equals("java.lang.ThreadBuilders$BoundVirtualThread")) {
                attachTask(thread, thread);
            }
            return;
        }
        Function<Thread, Object> targetOf = threadTargets;
        Object target = targetOf == null ? null : targetOf.apply(thread);
        if (target != null && !(target instanceof HopTask) && !rules.isHousekeeping(target)) {
            attachTask(thread, thread);
        }
    }

    /**
     * A virtual thread started in a request begins its run: entered as a task of the request, unless
     * its task is a library's housekeeping (a pool of virtual threads starts its worker loop inside
     * whichever request made it grow).
     */
    @Override
    public Object attachedVirtualThreadEnter(Thread thread, Runnable task) {
        if (task != null && rules.isHousekeeping(task)) {
            if (tasks.remove(thread) != null) {
                Bridge.PENDING_TASKS.decrementAndGet();
            }
            carriers.forget(thread);
            return null;
        }
        return attachedTaskEnter(thread);
    }

    /** A task attachTask remembered runs on this thread: entered as a task of its request. */
    @Override
    public Object attachedTaskEnter(Object task) {
        HopTask.Captured captured = tasks.remove(task);
        if (captured == null) {
            return null;
        }
        Bridge.PENDING_TASKS.decrementAndGet();
        return taskStart(captured);
    }

    @Override
    public Object captureContext(Object via) {
        return capture(via, System.nanoTime());
    }

    @Override
    public Object captureIoContext(Object via) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null || s.request.hasEnded()) {
            // Outside a request, or in one that has ended (a flush it scheduled, run after its end,
            // writing what the next request queued since): its I/O is no request's, and the one it
            // would replace is left in place (a channel's last writer: see the netty instrumentation).
            return null;
        }
        // No submit time: the thread that picks this up does so when the I/O is ready, and the
        // time until then is the wait for the I/O, not a queue (see HopTask.NO_QUEUE).
        return new HopTask.Captured(s.request, s.spanId, s.childDepth, s, HopTask.NO_QUEUE,
                via == null ? "?" : via.getClass().getName());
    }

    /** The current request as a Captured handed over at submitNanos, or null when none is current. */
    HopTask.Captured capture(Object via, long submitNanos) {
        return capture(via == null ? "?" : via.getClass().getName(), submitNanos);
    }

    private HopTask.Captured capture(String via, long submitNanos) {
        ThreadState s = ThreadContexts.current();
        if (s == null || s.request == null) {
            return null;
        }
        return new HopTask.Captured(s.request, s.spanId, s.childDepth, s, submitNanos, via);
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
            attached.compute(key, (k, held) -> held != null && !held.request.hasEnded() ? held : captured);
        }
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

    // ---------------------------------------------------------------- receiving side

    /** Enters a captureIoContext capture, unless its request has ended or this thread is in a request. */
    @Override
    public Object ioContextEnter(Object captured) {
        if (!(captured instanceof HopTask.Captured)) {
            return null;
        }
        ThreadState s = ThreadContexts.current();
        if (s != null && s.request != null) {
            return null; // already in a request: the outer one stays
        }
        HopTask.Captured c = (HopTask.Captured) captured;
        if (c.request.hasEnded()) {
            // A connection outlives its exchange (an idle pooled connection's read).
            return null;
        }
        return taskStart(c);
    }

    @Override
    public Object attachedContextEnter(Object key) {
        return ioContextEnter(attached.get(contextKey(key)));
    }

    @Override
    public Object attachedContextSwitch(Object key) {
        HopTask.Captured c = attached.get(contextKey(key));
        if (c == null || c.request.hasEnded()) {
            return null;
        }
        ThreadState s = ThreadContexts.current();
        if (s != null && s.request == c.request) {
            return null; // in it already
        }
        return taskStart(c); // puts aside the request the thread is in, if any, until taskEnd
    }

    /** What a task found on its thread when it started (request and span position), to restore when it ends. */
    private static final class TaskScope extends SpanPosition {
        final ThreadState state;
        final HopTask task;
        final RequestState previousRequest;
        final HopTask previousTask;

        TaskScope(ThreadState s, HopTask task) {
            state = s;
            this.task = task;
            previousRequest = s.request;
            previousTask = s.runningTask;
            save(s);
        }
    }

    /** taskStart's token for a task run inline by its submitter while it waits (a join that helps). */
    private static final class InlineInWait {
        final ThreadState state;

        InlineInWait(ThreadState state) {
            this.state = state;
        }
    }

    /**
     * taskStart's token for a task that runs in what its thread is in, no segment of its own, as the
     * running task until it ends: one that brought the request back to a thread already working on
     * it (see {@link #wayBack}) or came with such a way back, so that the tasks it runs in turn from
     * the same thread (a serializing executor's) come with it; one whose request has ended.
     */
    private static final class CameBack {
        final ThreadState state;
        final HopTask previousTask;

        CameBack(ThreadState state) {
            this.state = state;
            previousTask = state.runningTask;
        }
    }

    @Override
    public Object wrappedTaskEnter(Object task) {
        return taskStart((HopTask) task);
    }

    @Override
    public Object contextEnter(Object captured) {
        return taskStart((HopTask) captured);
    }

    Object taskStart(HopTask task) {
        try {
            ThreadState s = ThreadContexts.state();
            if (task.request.hasEnded()) {
                // Begun after its request ended (a flush a call scheduled, run once it returned,
                // writing what the next call queued since; a callback that flush wrapped): in no
                // request of its own, it runs in whatever this thread is in, as the running task
                // (the commands it drains are then one hand-over: drainedAlready).
                return rejoin(s, task);
            }
            if (s.thread != task.fromThread) {
                handedOverAgain(task, s.thread);
            }
            if (s.request == task.request) {
                if (s.thread == task.fromThread || runsInTaskFrom(s, task)) {
                    // Run inline on the submitting thread, in the same request, or inside a task from
                    // the same thread: no hop, same segment; inside a wait (a fork/join join runs the
                    // task it waits for), a segment of its own.
                    return inline(s);
                }
                if (cameBack(s, task)) {
                    // Part of a way back already counted: no second hop.
                    return s.segment == null && s.waitDepth > 0 ? inline(s) : rejoin(s, task);
                }
                if (s.waitDepth == 0 && task.handedToExecutor && !task.serverQueue) {
                    return wayBack(s, task);
                }
            }
            TaskScope scope = new TaskScope(s, task);
            if (s.request != null) {
                ThreadContexts.endSegment(s);
            }
            if (s.thread != task.fromThread && !drainedAlready(s, task)) {
                HopEvents.handoff(task, s.thread);
            }
            s.request = task.request;
            s.runningTask = task;
            SpanPosition.enter(s, task.spanId, task.childDepth, null);
            ThreadContexts.beginSegment(s, "task");
            return scope;
        } catch (Throwable t) {
            AgentErrors.report("executors", t);
            return null;
        }
    }

    /**
     * Whether a task from another thread is one more of the tasks from that thread, in the same
     * request, that the task running here drains one after another (a library's queue of commands
     * that one flush writes: grpc-netty's): one hand-over, one hop, however many the queue held. A
     * thread's own run of tasks (a pool worker taking them one by one) is no drain, nor are the
     * tasks a thread steals while it waits (a fork/join join's): each is a hop. Records this one's
     * arrival for the next.
     */
    private static boolean drainedAlready(ThreadState s, HopTask task) {
        HopTask draining = s.waitDepth == 0 ? s.runningTask : null;
        boolean already = draining != null && s.drainedDuring == draining && s.drainedFrom == task.fromThread
                && s.drainedIn == task.request;
        s.drainedDuring = draining;
        s.drainedFrom = task.fromThread;
        s.drainedIn = task.request;
        return already;
    }

    /** {@code task}'s run here ends: what it drained is forgotten, and nothing of it kept past its run. */
    private static void drained(ThreadState s, HopTask task) {
        if (s.drainedDuring == task) {
            s.drainedDuring = null;
            s.drainedFrom = null;
            s.drainedIn = null;
        }
    }

    /** A task of this thread's request that adds no hop: same segment, or inside a wait a segment of its own. */
    private static Object inline(ThreadState s) {
        if (s.segment != null || s.waitDepth == 0) {
            return null;
        }
        ThreadContexts.beginSegment(s, "task");
        return new InlineInWait(s);
    }

    /**
     * Whether a task of this thread's request, from another thread, runs inside a task from that
     * same thread: an executor that hands its tasks to another, a serializing executor's worker: one
     * hop from the first submitter.
     */
    private static boolean runsInTaskFrom(ThreadState s, HopTask task) {
        HopTask running = s.runningTask;
        return running != null && running.request == task.request && running.fromThread == task.fromThread;
    }

    /**
     * Whether a task of this thread's request, from another thread, belongs to the last way back
     * into this thread, from that thread (ThreadState#wokenBy), this thread having handed the
     * request to it no more since: queued before that thread woke this one (a caller that parks
     * until the I/O thread queues the response and unparks it, then runs it), or after (the
     * response's later pieces, which the caller drains from the executor it parked in, or found
     * there). A request's way back from one thread is one hop per hand-over to it, however many
     * pieces it comes in and whatever came first.
     */
    private static boolean cameBack(ThreadState s, HopTask task) {
        return s.wokenBy == task.fromThread && s.wokenIn == task.request && task.submitNanos != HopTask.NO_QUEUE;
    }

    /**
     * {@code task}'s submitter handed the request to this thread ({@code runner}) again after its
     * last way back from it: the next way back from this thread is one more hop. Written to the
     * submitter's state from here, before this thread does anything that could be that way back;
     * compared and set, so that a way back from another thread recorded meanwhile stays.
     */
    private static void handedOverAgain(HopTask task, Thread runner) {
        ThreadState from = task.fromState;
        if (from.wokenBy == runner && from.wokenIn == task.request
                && (task.submitNanos == HopTask.NO_QUEUE || task.submitNanos - from.wokenAtNanos > 0)) {
            ThreadState.WOKEN_BY.compareAndSet(from, runner, null);
        }
    }

    /**
     * A task another thread of the request handed to an executor, run by a thread already working on
     * the request, outside any wait: the thread drains an executor of its own (a caller-runs
     * executor: an RPC client's blocking call runs the response's callbacks itself, whether it
     * parked first or found them queued). The request comes back to it: a return hop, queueing to
     * pickup, as it would have been a wake had the thread parked before the task was queued. Not a
     * server's hand-over, whose hop is its queue, nor a library's hand-over without an executor (a
     * command queued for an event loop that is in the request already), which is a handoff.
     */
    private static Object wayBack(ThreadState s, HopTask task) {
        long now = System.nanoTime();
        HopEvents.ret(task.request, task.fromThread, s.thread, now - task.dueNanos, task.via);
        wokenBy(s, task.fromThread, now, task.request);
        return rejoin(s, task);
    }

    /** Records the thread's last way back (see ThreadState#wokenBy): from {@code from}, at {@code nanos}. */
    static void wokenBy(ThreadState s, Thread from, long nanos, RequestState r) {
        s.wokenAtNanos = nanos;
        s.wokenIn = r;
        s.wokenBy = from; // last: the volatile write that publishes the other two
    }

    private static Object rejoin(ThreadState s, HopTask task) {
        CameBack token = new CameBack(s);
        s.runningTask = task;
        return token;
    }

    @Override
    public void contextExit(Object token) {
        taskEnd(token);
    }

    void taskEnd(Object token) {
        if (token == null) {
            return;
        }
        try {
            if (token instanceof InlineInWait) {
                ThreadContexts.endSegment(((InlineInWait) token).state);
                return;
            }
            if (token instanceof CameBack) {
                CameBack back = (CameBack) token;
                drained(back.state, back.state.runningTask);
                back.state.runningTask = back.previousTask;
                return;
            }
            TaskScope scope = (TaskScope) token;
            ThreadState s = scope.state;
            if (scope.task instanceof HopTask.Captured && scope.task.future != null) {
                scope.task.completing(false); // a thread's run ends: its join is a way back (attachTask)
            }
            ThreadContexts.endSegment(s);
            drained(s, scope.task);
            if (scope.task.periodNanos != 0) {
                scope.task.nextRun();
            }
            s.request = scope.previousRequest;
            s.runningTask = scope.previousTask;
            scope.restore(s);
            // A task run while this thread waits (a fork/join join helping): the wait goes on.
            if (s.request != null && s.waitDepth == 0) {
                ThreadContexts.beginSegment(s, "resume");
            }
        } catch (Throwable t) {
            AgentErrors.report("executors", t);
        }
    }

    // ---------------------------------------------------------------- self-check

    /** Counts executor hooks seen while the current thread runs the self-check. */
    int selfCheck(Runnable instrumentedCall) {
        ThreadState s = ThreadContexts.state();
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
