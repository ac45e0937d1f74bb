package io.hopscope.analyzer.testing;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * A real recording of {@code count} one-segment requests on the calling thread, one after the other, ids 1 to
 * {@code count}, named {@code req-ID}, with {@link #GAP_MILLIS} of sleep between one's end and the
 * next one's start: a window whose bounds fall inside those gaps selects exactly the requests between
 * them, however the machine's timing goes.
 */
public final class SpacedRecording {

    public static final long GAP_MILLIS = 40;

    private SpacedRecording() {
    }

    public static void write(Path file, int count) throws Exception {
        write(file, count, GAP_MILLIS);
    }

    /** With {@code gapMillis} between requests (0: back to back, when only their ids matter). */
    public static void write(Path file, int count, long gapMillis) throws Exception {
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.start();
            Thread.sleep(gapMillis);
            for (long id = 1; id <= count; id++) {
                ContractEvents.Request r = new ContractEvents.Request();
                r.begin();
                ContractEvents.instantSegment(id, "work", 0);
                r.requestId = id;
                r.name = "req-" + id;
                r.outcome = "ok";
                r.statusCode = -1;
                r.startThread = Thread.currentThread();
                r.commit();
                Thread.sleep(gapMillis);
            }
            recording.stop();
            recording.dump(file);
        }
    }

    /** Each request's start as the recording has it (epoch nanoseconds), in id order. */
    public static List<Long> starts(Path file) throws Exception {
        List<Long> starts = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            if (e.getEventType().getName().equals("hopscope.Request")) {
                int id = (int) e.getLong("requestId");
                while (starts.size() < id) {
                    starts.add(0L);
                }
                Instant t = e.getStartTime();
                starts.set(id - 1, t.getEpochSecond() * 1_000_000_000L + t.getNano());
            }
        }
        return starts;
    }

    /** The instant halfway between request {@code id}'s start and the next one's (ids from 1). */
    public static long between(List<Long> starts, int id) {
        return starts.get(id - 1) + (starts.get(id) - starts.get(id - 1)) / 2;
    }
}
