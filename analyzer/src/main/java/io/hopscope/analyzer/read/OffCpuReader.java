package io.hopscope.analyzer.read;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.model.OffCpuInterval;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Streams {@code bpf/offwake.py --events} JSON Lines (schema: docs/ebpf.md) one record at a
 * time, mapping its CLOCK_MONOTONIC times to the recording's epoch nanoseconds; nothing is kept, so a
 * file of any size reads in constant memory. A line that is neither such a record, nor a loss record
 * ({@code lost}), nor the tracer's closing {@code summary} line is refused with its number, never skipped.
 */
public final class OffCpuReader {

    /** Waker stacks are cut here: the frames nearest the wake say who woke, and they are kept per request. */
    static final int STACK_FRAMES = 8;

    /**
     * The waker context offwake writes when the waker ran as itself (bpf/offwake_lib/records.py), not
     * an interrupt that ran over it: any other context makes the thread a bystander.
     */
    public static final String WAKER_RAN_AS_ITSELF = "task";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    // The futex command classes are defined once, in bpf/offwake_lib/futex.py (WAITS, WAKES), which also
    // generates the BPF program's; OffCpuSchemaTest checks these against them, through a fixture offwake's
    // own code writes. A wait: the thread sleeps until another acts on the futex word.
    private static final Set<String> WAIT_CMDS = Set.of("FUTEX_WAIT", "FUTEX_WAIT_BITSET", "FUTEX_WAIT_REQUEUE_PI",
            "FUTEX_LOCK_PI", "FUTEX_LOCK_PI2");
    // A wake: wakes a waiter on its first futex word (requeues wake some and move the rest).
    private static final Set<String> WAKE_CMDS = Set.of("FUTEX_WAKE", "FUTEX_WAKE_OP", "FUTEX_WAKE_BITSET",
            "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE", "FUTEX_UNLOCK_PI", "FUTEX_CMP_REQUEUE_PI");

    private OffCpuReader() {
    }

    /**
     * The tracer's closing line ({@code {"summary": {...}}}, last in files of offwake versions that write
     * one): what it counted but could not record, to a full ring buffer or a full thread map, and
     * {@code stackEvery}, its --stack-every (one interval in so many has stacks; 1 in files of offwake
     * versions that walked every interval's).
     */
    public record TracerSummary(long lostRecords, long lostIntervals, long lostFutexCalls, long stackEvery) {
        public long lost() {
            return lostRecords + lostIntervals + lostFutexCalls;
        }
    }

    /**
     * A loss record ({@code {"lost": {...}}}): {@code records} records the tracer lost to a full ring buffer,
     * every interval among them inside {@code [fromEpochNanos, toEpochNanos]} and of one of the threads
     * {@code tids} (sorted), or of any thread when {@code tids} is null (more threads than the tracer names, or
     * a file of an offwake that named none).
     */
    public record LossWindow(long records, long fromEpochNanos, long toEpochNanos, long[] tids) {

        public LossWindow(long records, long fromEpochNanos, long toEpochNanos) {
            this(records, fromEpochNanos, toEpochNanos, null);
        }

        /** Whether records of thread {@code tid} may be among the lost ones. */
        public boolean covers(long tid) {
            return tids == null || Arrays.binarySearch(tids, tid) >= 0;
        }
    }

    /** Reads every record of {@code file}; returns how many there were. */
    public static long read(Path file, ClockAlignment clock, Consumer<OffCpuInterval> sink) throws RecordingProblem {
        return read(file, clock, sink, s -> { }, w -> { });
    }

    /**
     * Reads every record of {@code file}, handing its summary line, if it has one, to {@code summary} and its
     * loss records to {@code losses}.
     */
    public static long read(Path file, ClockAlignment clock, Consumer<OffCpuInterval> sink,
                            Consumer<TracerSummary> summary, Consumer<LossWindow> losses) throws RecordingProblem {
        long n = 0;
        long lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode r;
                try {
                    r = MAPPER.readTree(line);
                } catch (JsonProcessingException e) {
                    throw new RecordingProblem(file + ": line " + lineNo + ": not a json object (offwake --events writes one per line)");
                }
                if (r != null && r.path("summary").isObject()) {
                    JsonNode t = r.get("summary");
                    summary.accept(new TracerSummary(t.path("lost_records").asLong(0),
                            t.path("lost_intervals").asLong(0), t.path("lost_futex_calls").asLong(0),
                            Math.max(1, t.path("stack_every").asLong(1))));
                    continue;
                }
                if (r != null && r.path("lost").isObject()) {
                    losses.accept(loss(file, lineNo, r.get("lost"), clock));
                    continue;
                }
                sink.accept(interval(file, lineNo, r, clock));
                n++;
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new RecordingProblem(file + ": line " + (lineNo + 1) + ": not utf-8 text");
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read: " + e.getMessage());
        }
        return n;
    }

    static OffCpuInterval interval(Path file, long lineNo, JsonNode r, ClockAlignment clock) throws RecordingProblem {
        if (r == null || !r.isObject()) {
            throw new RecordingProblem(file + ": line " + lineNo + ": not a json object (offwake --events writes one per line)");
        }
        long tid = required(file, lineNo, r, "tid");
        long off = required(file, lineNo, r, "off_ns");
        long on = required(file, lineNo, r, "on_ns");
        if (on < off) {
            throw new RecordingProblem(file + ": line " + lineNo + ": on_ns is before off_ns");
        }
        long wakeup = r.path("wakeup_ns").isIntegralNumber() ? clock.toEpochNanos(r.get("wakeup_ns").asLong()) : -1;
        long runq = r.path("runq_ns").isIntegralNumber() ? r.get("runq_ns").asLong() : -1;
        JsonNode waker = r.path("waker");
        JsonNode futex = r.path("futex");
        String cmd = futex.path("cmd").asText("");
        boolean futexWait = futex.isObject() && WAIT_CMDS.contains(cmd);
        JsonNode wakerFutex = r.path("waker_futex");
        boolean futexWake = futexWait && wakerFutex.isObject() && WAKE_CMDS.contains(wakerFutex.path("cmd").asText(""))
                && futex.path("uaddr").asText("").equals(wakerFutex.path("uaddr").asText("?"));
        long futexEnter = futex.path("enter_ns").isIntegralNumber() ? clock.toEpochNanos(futex.get("enter_ns").asLong()) : -1;
        // Absent in files of offwake versions that walked every interval's stacks.
        JsonNode weight = r.path("stack_weight");
        int stackWeight = weight.isMissingNode() ? 1
                : weight.isIntegralNumber() && weight.canConvertToInt() && weight.asInt() >= 0 ? weight.asInt() : -1;
        if (stackWeight < 0) {
            throw new RecordingProblem(file + ": line " + lineNo + ": stack_weight is not a count of intervals (an"
                    + " integer >= 0)");
        }
        return new OffCpuInterval(tid, text(r.path("comm")), clock.toEpochNanos(off), clock.toEpochNanos(on),
                text(r.path("state")), wakeup, runq,
                waker.isObject() ? waker.path("tid").asLong(-1) : -1,
                waker.isObject() ? text(waker.path("comm")) : null,
                waker.isObject() ? text(waker.path("context")) : null,
                futexWait, futexEnter, futexWake, stack(r.path("waker_stack")), frames(r.path("stack")),
                waker.isObject() ? frames(r.path("waker_stack")) : null, stackWeight);
    }

    static LossWindow loss(Path file, long lineNo, JsonNode r, ClockAlignment clock) throws RecordingProblem {
        long records = required(file, lineNo, r, "records");
        long from = required(file, lineNo, r, "from_ns");
        long to = required(file, lineNo, r, "to_ns");
        if (to < from || records < 0) {
            throw new RecordingProblem(file + ": line " + lineNo + ": a loss record with to_ns before from_ns "
                    + "or a negative count");
        }
        JsonNode threads = r.path("tids");
        long[] tids = null;
        if (threads.isArray()) {
            tids = new long[threads.size()];
            for (int k = 0; k < tids.length; k++) {
                if (!threads.get(k).isIntegralNumber()) {
                    throw new RecordingProblem(file + ": line " + lineNo + ": a loss record's tids are not thread ids");
                }
                tids[k] = threads.get(k).asLong();
            }
            Arrays.sort(tids);
        } else if (!threads.isMissingNode() && !threads.isNull()) {
            throw new RecordingProblem(file + ": line " + lineNo + ": a loss record's tids are not a list of thread ids");
        }
        return new LossWindow(records, clock.toEpochNanos(from), clock.toEpochNanos(to), tids);
    }

    private static long required(Path file, long lineNo, JsonNode r, String field) throws RecordingProblem {
        JsonNode v = r.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new RecordingProblem(file + ": line " + lineNo + ": no integer field " + field
                    + " (not offwake --events output?)");
        }
        return v.asLong();
    }

    private static boolean named(JsonNode frames) {
        if (frames.isArray()) {
            for (JsonNode f : frames) {
                if (!f.asText().startsWith("[unknown]")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }

    private static OffCpuInterval.Frames frames(JsonNode s) {
        return s.isObject() ? new OffCpuInterval.Frames(list(s.path("kernel")), list(s.path("user")))
                : new OffCpuInterval.Frames(null, null);
    }

    private static List<String> list(JsonNode frames) {
        if (!frames.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>(frames.size());
        frames.forEach(f -> out.add(f.asText()));
        return out;
    }

    // User frames say which code woke the thread; a waker without named ones (an interrupt, a kernel
    // thread, a process that exited before offwake could name its frames) is told by its kernel frames.
    private static List<String> stack(JsonNode s) {
        if (!s.isObject()) {
            return List.of();
        }
        JsonNode frames = named(s.path("user")) ? s.path("user") : s.path("kernel");
        List<String> out = new ArrayList<>();
        if (frames.isArray()) {
            for (JsonNode f : frames) {
                if (out.size() == STACK_FRAMES) {
                    break;
                }
                out.add(f.asText());
            }
        }
        return out;
    }
}
