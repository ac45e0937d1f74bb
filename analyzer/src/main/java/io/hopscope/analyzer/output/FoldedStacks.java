package io.hopscope.analyzer.output;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.OffCpuInterval;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.StackSample;
import io.hopscope.analyzer.model.ThreadPools;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.Wait;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collapsed stacks ({@code root;child;leaf weight}, Brendan Gregg's folded format), the exchange format
 * with other flame graph tools and the input of {@link FlameHtml}. Every stack starts with the request
 * name, so one graph can hold several request names side by side.
 */
public final class FoldedStacks {

    // Sorted so that the folded output is stable (a diffable file, an expected-output test).
    private final Map<String, Long> weights = new TreeMap<>();

    /** Adds {@code weight} to the stack given root first. */
    public void add(List<String> rootFirst, long weight) {
        if (weight <= 0 || rootFirst.isEmpty()) {
            return;
        }
        StringBuilder key = new StringBuilder();
        for (String frame : rootFirst) {
            append(key, frame);
        }
        weights.merge(key.toString(), weight, Long::sum);
    }

    /** Adds a JDK event's stack below {@code requestName}, with its leaf (e.g. the allocated class) on top. */
    public void addSample(String requestName, StackSample sample) {
        if (sample.weight() <= 0) {
            return;
        }
        // The key is built straight from the sample: no list per sample in the flame graphs' pass.
        StringBuilder key = new StringBuilder();
        append(key, requestName);
        for (String frame : sample.framesRootFirst()) {
            append(key, frame);
        }
        if (sample.leaf() != null) {
            append(key, sample.leaf());
        }
        weights.merge(key.toString(), sample.weight(), Long::sum);
    }

    private static void append(StringBuilder key, String frame) {
        if (key.length() > 0) {
            key.append(';');
        }
        key.append(frame(frame));
    }

    /**
     * One off-CPU part in the offwaketime picture, weighted by its nanoseconds times its interval's stack
     * weight (offwake --stack-every N: N for an interval whose stacks were sampled, 0, not drawn, for one
     * whose were not): request name, the
     * wakee thread, its place ({@code wait KIND} or {@code segment}), the wakee's user then kernel
     * frames from root to leaf, the separator {@code --}, then the waker's kernel then user frames from
     * leaf to root and the waker's name on top (as bcc's {@code offwaketime -f} draws it); only
     * {@code (no waker)} above the separator when the thread stayed runnable.
     */
    public void addOffWake(OffCpuOverlap o) {
        int weight = o.interval().stackWeight();
        if (weight == 0) {
            return;
        }
        List<String> frames = new ArrayList<>();
        frames.add(o.requestName());
        frames.add(o.thread());
        frames.add("segment".equals(o.during()) ? "segment" : "wait " + o.during());
        OffCpuInterval.Frames.addRootFirst(frames, o.interval().stack());
        frames.add("--");
        OffCpuInterval.Frames waker = o.interval().wakerFrames();
        if (o.waker() == null || waker == null) {
            frames.add(o.waker() == null ? "(no waker)" : o.waker());
        } else {
            leafFirst(frames, waker.kernel(), "[Missed Kernel Stack]");
            leafFirst(frames, waker.user(), "[Missed User Stack]");
            frames.add(o.waker());
        }
        add(frames, o.nanos() * weight);
    }

    private static void leafFirst(List<String> frames, List<String> innermostFirst, String missed) {
        if (innermostFirst == null) {
            frames.add(missed);
        } else {
            frames.addAll(innermostFirst);
        }
    }

    /**
     * The synthetic "hops" picture of one request, weighted by nanoseconds: request name, then the
     * pipeline policies open at the time (on any thread: a caller's policy is open while an event loop
     * works for it), then the thread pool and the thread for each segment, split where policies open
     * and close; a wait as a frame above its thread; each hop's queue delay or wake latency as
     * "queue delay to POOL" / "wake latency to POOL" beside ("server queue to POOL" for a server's
     * hand-over of the request to its request thread). So a request type that hops shows its
     * event-loop pools; one that does not shows only its caller's.
     */
    public void addHops(Request r) {
        for (Segment s : r.segments()) {
            addSplitByPolicies(r, s.startEpochNanos(), s.endEpochNanos(), threadFrames(s.thread(), null));
        }
        for (Wait w : r.waits().list()) {
            if (w.thread() != null) {
                addSplitByPolicies(r, w.startEpochNanos(), w.endEpochNanos(), threadFrames(w.thread(), "wait " + w.kind()));
            }
        }
        for (Hop h : r.hops().list()) {
            if (h.to() == ThreadRef.UNKNOWN) {
                continue;
            }
            List<String> frames = policies(r, h.departureEpochNanos());
            frames.add(h.figureName() + " to " + pool(h.to()));
            add(frames, h.delayNanos());
        }
    }

    // Cuts [start, end) where a span of the request begins or ends, and weighs each piece under the
    // spans open in it, so that a segment in which a policy runs for a while is not all put under it.
    private void addSplitByPolicies(Request r, long startNanos, long endNanos, List<String> top) {
        java.util.TreeSet<Long> cuts = new java.util.TreeSet<>(List.of(startNanos, endNanos));
        for (Span sp : r.spans().list()) {
            for (long t : new long[] {sp.startEpochNanos(), sp.endEpochNanos()}) {
                if (t > startNanos && t < endNanos) {
                    cuts.add(t);
                }
            }
        }
        Long from = null;
        for (long to : cuts) {
            if (from != null && to > from) {
                List<String> frames = policies(r, from);
                frames.addAll(top);
                add(frames, to - from);
            }
            from = to;
        }
    }

    // The request's spans open at that instant, outermost first: the policies that were running.
    private static List<String> policies(Request r, long atEpochNanos) {
        List<String> frames = new ArrayList<>();
        frames.add(r.name() == null ? "?" : r.name());
        r.spans().list().stream()
                .filter(s -> s.startEpochNanos() <= atEpochNanos && atEpochNanos < s.endEpochNanos())
                .sorted(Comparator.comparingLong(Span::startEpochNanos).thenComparingInt(Span::depth))
                .forEach(s -> frames.add(TraceJson.shortName(s.name())));
        return frames;
    }

    /**
     * A thread's pool: its name without the trailing number ({@code reactor-http-epoll-7} is in
     * {@code reactor-http-epoll}); for a virtual thread, {@code virtual P} with P its name's prefix
     * ({@code virtual vworker-}; {@code virtual (unnamed)}).
     */
    static String pool(ThreadRef t) {
        if (t.virtual()) {
            return ThreadPools.of(t.name() == null ? "" : t.name(), true);
        }
        return "pool " + ThreadPools.prefix(t.label());
    }

    // A platform thread is a frame under its pool; virtual threads, one per task, are only their group.
    private static List<String> threadFrames(ThreadRef t, String wait) {
        List<String> frames = new ArrayList<>(3);
        frames.add(pool(t));
        if (!t.virtual()) {
            frames.add(t.label());
        }
        if (wait != null) {
            frames.add(wait);
        }
        return frames;
    }

    public boolean isEmpty() {
        return weights.isEmpty();
    }

    public long totalWeight() {
        return weights.values().stream().mapToLong(Long::longValue).sum();
    }

    public void write(Writer out) throws IOException {
        for (Map.Entry<String, Long> e : weights.entrySet()) {
            out.write(e.getKey());
            out.write(' ');
            out.write(Long.toString(e.getValue()));
            out.write('\n');
        }
    }

    /** The folded text, for {@link FlameHtml}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        weights.forEach((k, v) -> sb.append(k).append(' ').append(v).append('\n'));
        return sb.toString();
    }

    // ';' separates frames and a line ends a stack: neither may stay inside a frame name.
    private static String frame(String name) {
        return name.replace(';', ':').replace('\n', ' ').replace('\r', ' ');
    }
}
