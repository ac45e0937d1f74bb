package io.hopscope.agent.runtime;

/**
 * The results that threads of one request completed lately (a future's value, a blocking
 * subscriber's signal), with the completing thread and when, so that the thread that picks a result
 * up can be told where it came from even when it never parked: the way back is a hop whatever the
 * timing. Each is recorded just before the result becomes visible as done, so a thread that sees it
 * done finds the record.
 *
 * <p>A ring of the last {@link #SIZE} results, compared by identity: made with the request's first
 * completion and collected with the request, so nothing outlives it and no table is keyed by
 * result. A result completed again (a subscriber's onNext and then its onComplete) keeps one slot,
 * with the last completion. A result picked up is taken out: a second look at the same result is no
 * second hop. A result completed more than {@code SIZE} completions before its pickup is no longer
 * known, and its pickup is no hop.
 */
final class Completions {

    static final int SIZE = 8;

    private final Object[] results = new Object[SIZE];
    private final Thread[] threads = new Thread[SIZE];
    private final long[] times = new long[SIZE];
    private int next;

    synchronized void record(Object result, Thread by, long nanos) {
        int i = indexOf(result);
        if (i < 0) {
            i = next;
            next = (next + 1) % SIZE;
            results[i] = result;
        }
        threads[i] = by;
        times[i] = nanos;
    }

    /**
     * {@code picker} picked {@code result} up without parking: a return hop of {@code request} from the
     * thread that completed it, unless that was the picker itself or the completion is not known here.
     */
    void returned(RequestState request, Object result, Thread picker, String via) {
        Completion c = takeCompletion(result);
        if (c != null && c.by() != picker) {
            HopEvents.ret(request, c.by(), picker, System.nanoTime() - c.nanos(), via);
        }
    }

    /** Who completed a result, and when. */
    static final class Completion {
        private final Thread by;
        private final long nanos;

        Completion(Thread by, long nanos) {
            this.by = by;
            this.nanos = nanos;
        }

        Thread by() {
            return by;
        }

        long nanos() {
            return nanos;
        }
    }

    /** The completion of {@code result}, taken out; null when it is not known here. */
    synchronized Completion takeCompletion(Object result) {
        int i = take(result);
        if (i < 0) {
            return null;
        }
        Thread by = threads[i];
        threads[i] = null;
        return by == null ? null : new Completion(by, times[i]);
    }

    /** {@code result} was picked up after a wake (the wake is the hop): forgotten. */
    synchronized void forget(Object result) {
        int i = take(result);
        if (i >= 0) {
            threads[i] = null;
        }
    }

    /** The slot of {@code result}, emptied of it, or -1. */
    private int take(Object result) {
        int i = indexOf(result);
        if (i >= 0) {
            results[i] = null;
        }
        return i;
    }

    private int indexOf(Object result) {
        for (int i = 0; i < SIZE; i++) {
            if (results[i] == result) {
                return i;
            }
        }
        return -1;
    }
}
