package io.hopscope.agent.runtime;

/**
 * Where a thread stands in its request's span tree: the innermost open span (0 = none), the depth a
 * child of it gets, and the object whose span that is. A task, a synchronous span and an async
 * span's subscription each save the thread's position when they begin and restore it when they end;
 * this class is the one place those fields are copied, entered and cleared.
 */
class SpanPosition {

    long spanId;
    int childDepth;
    Object spanOwner;

    /** Remembers the thread's current position. */
    final void save(ThreadState s) {
        spanId = s.spanId;
        childDepth = s.childDepth;
        spanOwner = s.spanOwner;
    }

    /** Puts the thread back where it was at {@link #save}. */
    final void restore(ThreadState s) {
        s.spanId = spanId;
        s.childDepth = childDepth;
        s.spanOwner = spanOwner;
    }

    /** Moves the thread into a span (or, with a captured position, to where a task was submitted). */
    static void enter(ThreadState s, long spanId, int childDepth, Object spanOwner) {
        s.spanId = spanId;
        s.childDepth = childDepth;
        s.spanOwner = spanOwner;
    }

    /** The thread leaves its request: no request, no span. */
    static void clear(ThreadState s) {
        s.request = null;
        enter(s, 0, 0, null);
    }
}
