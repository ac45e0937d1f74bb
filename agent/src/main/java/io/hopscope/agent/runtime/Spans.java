package io.hopscope.agent.runtime;

import io.hopscope.agent.bootstrap.SpanHooks;
import io.hopscope.agent.events.SpanEvent;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spans inside a request: a policy's or interceptor's call (synchronous, nested on its thread), a
 * nested boundary, and async policies' results ({@link AsyncSpan}). Called on every instrumented
 * policy call, inside a request or not: outside one it allocates nothing, and a synchronous span
 * reuses its thread's frame for that depth.
 */
final class Spans implements SpanHooks {

    /** Span ids are handed to threads in blocks: one shared counter update per this many spans. */
    private static final long SPAN_ID_BLOCK = 1024;
    private static final AtomicLong SPAN_ID_BLOCKS = new AtomicLong();
    /**
     * Asks whether span events are recorded at all (JFR's enabled flag is per event class, so any
     * instance answers for all); never committed.
     */
    private static final SpanEvent SPAN_PROBE = new SpanEvent();
    /** Frames past this depth are not kept for reuse (a runaway recursion must not grow a thread's pool). */
    private static final int POOLED_SPAN_FRAMES = 64;

    private final List<AsyncAdapter> adapters;

    Spans(List<AsyncAdapter> adapters) {
        this.adapters = adapters;
    }

    @Override
    public Object spanEnter(String kind, Object self, boolean async) {
        ThreadState s = ThreadContexts.current();
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
            Object wrapped = adapter.spanOnSubscription(span, result);
            if (wrapped != null) {
                return wrapped;
            }
        }
        return result;
    }

    /** Whether a span opened now would be recorded: the request samples spans and the recording takes them. */
    static boolean recorded(RequestState r) {
        return r.spans && SPAN_PROBE.isEnabled();
    }

    /**
     * A span id unique in the JVM run, from this thread's block: eight threads opening a dozen spans
     * per request each would otherwise contend on one counter's cache line.
     */
    static long nextSpanId(ThreadState s) {
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
                s.spanFrames = Arrays.copyOf(s.spanFrames, i * 2);
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

    static ThreadState.SpanFrame openSyncSpan(ThreadState s, String kind, String name, Object owner) {
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
        f.save(s);
        SpanPosition.enter(s, e.spanId, e.depth + 1, owner);
        e.begin();
        return f;
    }

    static void closeSyncSpan(ThreadState.SpanFrame f) {
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
        f.restore(s);
        // A pooled frame must not keep the application's objects alive.
        f.spanOwner = null;
        f.named = null;
        e.name = null;
    }
}
