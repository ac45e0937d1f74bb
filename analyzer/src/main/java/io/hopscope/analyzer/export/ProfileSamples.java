package io.hopscope.analyzer.export;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.OffCpuInterval;
import io.hopscope.analyzer.model.OffCpuOverlap;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.StackSample;
import io.hopscope.analyzer.model.ThreadPools;
import io.hopscope.analyzer.model.ThreadRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-request values export sends, added up by sample type, stack and attributes: what both the
 * OTLP and the pprof writers read. A stack is root first; a hop's stack is made of two synthetic
 * frames ({@code queue delay via VIA}, {@code to POOL}) since a hop has no Java stack of its own.
 * Every sample carries its request's name and, where the recording has it, its kind; each request is
 * also one {@code requests} sample of its own.
 * A sample of a request made in a W3C trace keeps its trace and span id (the OTLP sample's link,
 * pprof's {@code span_id}): such samples add up per trace, the others per stack and attributes only.
 */
public final class ProfileSamples {

    // live makes a window's profiles from thousands of requests a second with a few threads and hop sites:
    // each thread's pool and each hop's two frames are made once (bounded: cleared past CACHED entries).
    private static final int CACHED = 10_000;
    private static final Map<String, String> POOLS = new ConcurrentHashMap<>();
    private static final Map<HopSite, List<String>> HOP_FRAMES = new ConcurrentHashMap<>();

    /** Where a hop went: its figure (queue delay, wake latency...), what carried it, the pool it reached. */
    private record HopSite(String figure, String via, String pool) {
    }

    /**
     * A stack, root first, the attribute values (indexed by {@link Attribute#ordinal()}, null when absent)
     * and the request's trace context (null when none).
     */
    public record Key(List<String> framesRootFirst, List<String> attributes, String traceId, String spanId) {

        public String attribute(Attribute a) {
            return attributes.get(a.ordinal());
        }
    }

    // Insertion order: the same recording gives the same file, byte for byte.
    private final Map<SampleType, Map<Key, long[]>> values = new EnumMap<>(SampleType.class);
    private long requests;

    /**
     * A JDK event joined to a request of {@code requestKind} (null: not recorded): its frames, then its
     * leaf (the allocated or contended class) on top.
     */
    public void addJoined(SampleType type, String requestName, String requestKind, String traceId, String spanId,
                          StackSample sample) {
        if (sample.weight() <= 0) {
            return;
        }
        List<String> frames = new ArrayList<>(sample.framesRootFirst().size() + 1);
        frames.addAll(sample.framesRootFirst());
        if (sample.leaf() != null) {
            // FoldedStacks' "_[k]" colours a flame graph's frame; a profile's frame is just the class.
            frames.add(sample.leaf().endsWith("_[k]") ? sample.leaf().substring(0, sample.leaf().length() - 4) : sample.leaf());
        }
        add(type, frames, attributes(requestName, requestKind, pool(sample.threadName(), false), null, null), traceId,
                spanId, sample.weight());
    }

    /**
     * A finished request: counted ({@link SampleType#requests}, its stack its name alone), and its hops
     * when it kept its lists. Returns false when it had hops (or a server's hand-over) but not its lists,
     * which the analyzer's budget dropped: those hops are not in the profile.
     */
    public boolean addRequest(Request r) {
        String name = r.name() == null ? "?" : r.name();
        add(SampleType.requests, List.of(name), attributes(name, r.kind(), null, null, null), r.traceId(), r.spanId(), 1);
        requests++;
        if (r.detailKept()) {
            addHops(r);
            return true;
        }
        return r.hops().count() == 0 && !r.serverQueue().queued();
    }

    /** The requests added ({@link #addRequest}). */
    public long requests() {
        return requests;
    }

    /**
     * Every hop of the request (the report's detail) as its delay, with its kind and via: a server's
     * hand-over as {@code server_queue} ({@code server queue via VIA}), the others by their kind.
     */
    public void addHops(Request r) {
        for (Hop h : r.hops().list()) {
            if (h.to() == ThreadRef.UNKNOWN || h.delayNanos() <= 0) {
                continue;
            }
            String via = h.via() == null || h.via().isEmpty() ? "?" : h.via();
            String pool = pool(h.to().name(), h.to().virtual());
            add(SampleType.ofHop(h), hopFrames(h.figureName(), via, pool),
                    attributes(r.name(), r.kind(), pool, h.kind(), via), r.traceId(), r.spanId(), h.delayNanos());
        }
    }

    /**
     * One off-CPU part of a request from the eBPF join, weighted by its nanoseconds times its interval's
     * stack weight (offwake --stack-every), the wakee's user then kernel frames from the root; an
     * interval whose stacks were not sampled (weight 0) is left out, as the offwake flame graph does.
     */
    public void addOffCpu(OffCpuOverlap o, String requestKind, String traceId, String spanId) {
        int weight = o.interval().stackWeight();
        if (weight == 0 || o.nanos() <= 0) {
            return;
        }
        List<String> frames = new ArrayList<>();
        OffCpuInterval.Frames.addRootFirst(frames, o.interval().stack());
        frames.add("segment".equals(o.during()) ? "off cpu" : "off cpu in wait " + o.during());
        add(SampleType.off_cpu, frames, attributes(o.requestName(), requestKind, pool(o.thread(), false), null, null),
                traceId, spanId, o.nanos() * weight);
    }

    private void add(SampleType type, List<String> framesRootFirst, List<String> attributes, String traceId,
                     String spanId, long value) {
        values.computeIfAbsent(type, t -> new LinkedHashMap<>())
                .computeIfAbsent(new Key(List.copyOf(framesRootFirst), attributes, traceId, spanId),
                        k -> new long[1])[0] += value;
    }

    private static List<String> attributes(String requestName, String requestKind, String pool, String hopKind,
                                           String hopVia) {
        String[] a = new String[Attribute.values().length];
        a[Attribute.request_name.ordinal()] = requestName == null ? "?" : requestName;
        a[Attribute.request_kind.ordinal()] = requestKind;
        a[Attribute.thread_pool.ordinal()] = pool;
        a[Attribute.hop_kind.ordinal()] = hopKind;
        a[Attribute.hop_via.ordinal()] = hopVia;
        return Collections.unmodifiableList(Arrays.asList(a));
    }

    // A hop's stack: {@code queue delay via VIA}, {@code to POOL}.
    private static List<String> hopFrames(String figure, String via, String pool) {
        if (HOP_FRAMES.size() > CACHED) {
            HOP_FRAMES.clear();
        }
        return HOP_FRAMES.computeIfAbsent(new HopSite(figure, via, pool), k -> List.of(figure + " via " + via, "to " + pool));
    }

    /**
     * A thread's pool ({@link ThreadPools}), null when the thread is not known; made once per name.
     */
    static String pool(String threadName, boolean virtual) {
        if (threadName == null) {
            return null;
        }
        String key = virtual ? "\0" + threadName : threadName;
        String known = POOLS.get(key);
        if (known != null) {
            return known;
        }
        if (POOLS.size() > CACHED) {
            POOLS.clear(); // a thread a task: names that need not repeat
        }
        String pool = ThreadPools.of(threadName, virtual);
        POOLS.put(key, pool);
        return pool;
    }

    /** The sample types that got at least one value, in {@link SampleType} order. */
    public List<SampleType> types() {
        return List.copyOf(values.keySet());
    }

    /** The values of one type, by stack and attributes (empty for a type without any). */
    public Map<Key, long[]> of(SampleType type) {
        return values.getOrDefault(type, Map.of());
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }
}
