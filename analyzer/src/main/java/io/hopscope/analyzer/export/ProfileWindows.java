package io.hopscope.analyzer.export;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.SortField;
import io.hopscope.analyzer.model.Request;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import jdk.jfr.consumer.EventStream;

/**
 * {@code live}'s per-request profiles, a window at a time ({@code --profile-interval}, windows aligned on
 * the epoch as live's intervals are): the analyzer's single pass over the JVM's stream hands over each
 * request as it finishes ({@link RecordingAnalyzer#watching}); it goes, with its JDK events joined to it
 * ({@link RequestProfiles}), to the window its end falls in. A window is closed, and handed to
 * {@code closed}, once the analyzer is through its end: no request that ended in it can come later, so
 * every request is in exactly one window, and a backend's view of any span is the sum of its windows.
 * One that comes later all the same (not seen) goes to the oldest window still open. The first window
 * starts when the watch did, the last ends when it ended; a window in which no request ended is not
 * handed over. Memory: the samples of the windows open, one or two.
 */
public final class ProfileWindows {

    /** One window's profiles: the requests that ended from {@code startNanos} (epoch) before {@code endNanos}. */
    public record Window(long startNanos, long endNanos, ProfileSamples samples) {
    }

    private final long windowNanos;
    private final long watchStartNanos;
    private final Consumer<Window> closed;
    private final RecordingAnalyzer analyzer;
    private final RequestProfiles profiles;
    // Open windows by index (epoch nanos / windowNanos), each with the requests that ended in it so far.
    private final TreeMap<Long, ProfileSamples> open = new TreeMap<>();
    // Windows below this index are closed.
    private long closedBelow = Long.MIN_VALUE;
    private boolean ended;

    /**
     * Windows of {@code windowNanos} over the stream of {@code source} (a process), watched from
     * {@code watchStartNanos} (epoch); {@code detailBytes} bounds the requests' lists in flight as
     * {@code --detail-memory} does.
     */
    public ProfileWindows(String source, long windowNanos, long watchStartNanos, long detailBytes,
                          Consumer<Window> closed) {
        this.windowNanos = windowNanos;
        this.watchStartNanos = watchStartNanos;
        this.closed = closed;
        // No top sites: a profile takes the joined events themselves, not the report's summary of them.
        this.analyzer = RecordingAnalyzer.watching(source, new AnalysisOptions(null, -1, SortField.start, 0, detailBytes),
                this::finished);
        this.profiles = new RequestProfiles(analyzer, null, new ProfileSamples());
    }

    /** Reads {@code stream}'s events (call before it starts). */
    public void watch(EventStream stream) {
        analyzer.watch(stream, this::through);
    }

    // On the stream's thread, each request as it finishes; its joined events follow.
    private synchronized void finished(Request r) {
        if (ended) {
            return; // a stream that outlived its end (it would not stop): nothing is sent after the last window
        }
        long index = Math.max(Math.floorDiv(r.endEpochNanos(), windowNanos), closedBelow);
        ProfileSamples samples = open.computeIfAbsent(index, i -> new ProfileSamples());
        profiles.into(samples);
        profiles.add(r);
    }

    // Every request that ended before epochNanos has been handed over: the windows that end by then are done.
    private synchronized void through(long epochNanos) {
        long firstOpen = Math.floorDiv(epochNanos, windowNanos);
        for (Map.Entry<Long, ProfileSamples> w = open.firstEntry(); w != null && w.getKey() < firstOpen;
             w = open.firstEntry()) {
            open.remove(w.getKey());
            hand(w.getKey(), w.getValue(), (w.getKey() + 1) * windowNanos);
        }
        closedBelow = Math.max(closedBelow, firstOpen);
    }

    /**
     * The stream has ended (call after it has): the requests that waited are handed over and every window
     * is closed, the last one at {@code endNanos} (epoch: when the watch ended) or its own end if sooner.
     */
    public void end(long endNanos) {
        // Outside this object's lock: the analyzer's lock comes first, as on the stream's thread, which holds
        // it while it hands requests and flush points here.
        analyzer.endWatch();
        synchronized (this) {
            ended = true;
            for (Map.Entry<Long, ProfileSamples> w = open.pollFirstEntry(); w != null; w = open.pollFirstEntry()) {
                hand(w.getKey(), w.getValue(), Math.min((w.getKey() + 1) * windowNanos, Math.max(endNanos,
                        w.getKey() * windowNanos + 1)));
            }
        }
    }

    private void hand(long index, ProfileSamples samples, long endNanos) {
        if (samples.requests() == 0) {
            return;
        }
        closed.accept(new Window(Math.max(index * windowNanos, Math.min(watchStartNanos, endNanos - 1)), endNanos,
                samples));
    }
}
