package io.hopscope.analyzer.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.Recording;

/**
 * A recording with known places on known OS threads, and hand-made {@code offwake --events} lines
 * placed inside them, so the kernel join has exact answers. Request 1 runs on thread {@code kj-caller}:
 * a 20 ms segment, a 60 ms {@code Mono.block} wait, a 20 ms segment; request 2 runs one 20 ms segment
 * on {@code kj-loop}. Times are taken with {@code System.nanoTime()} (CLOCK_MONOTONIC on Linux, the
 * clock of offwake and of {@code hopscope.ClockSync}); the intervals sit milliseconds inside their
 * places, far more than the microseconds the clock mapping can be off by.
 */
public final class KernelFixture {

    public static final long MS = 1_000_000L;
    public static final String NAME = "kj";

    public long callerTid;
    public long loopTid;
    public long seg1Start;
    public long waitStart;
    public long seg2Start;
    public long loopSegStart;

    /** Records the requests into {@code jfr}; with {@code clockSync} false, no ClockSync event is written. */
    public static KernelFixture record(Path jfr, boolean clockSync) throws Exception {
        KernelFixture f = new KernelFixture();
        try (Recording r = new Recording()) {
            for (Class<? extends jdk.jfr.Event> c : List.of(ContractEvents.Request.class, ContractEvents.Segment.class,
                    ContractEvents.Wait.class, ContractEvents.ClockSync.class)) {
                r.enable(c);
            }
            r.start();
            if (clockSync) {
                sync();
            }
            Thread loop = new Thread(() -> {
                f.loopTid = tid();
                ContractEvents.Segment s = new ContractEvents.Segment();
                s.begin();
                f.loopSegStart = System.nanoTime();
                s.requestId = 2;
                s.kind = "start";
                sleep(20);
                s.commit();
                request(2, s);
            }, "kj-loop");
            loop.start();
            loop.join();
            Thread caller = new Thread(() -> {
                f.callerTid = tid();
                ContractEvents.Request req = new ContractEvents.Request();
                req.begin();
                ContractEvents.Segment s1 = new ContractEvents.Segment();
                s1.begin();
                f.seg1Start = System.nanoTime();
                s1.requestId = 1;
                s1.kind = "start";
                sleep(20);
                s1.commit();
                ContractEvents.Wait w = new ContractEvents.Wait();
                w.begin();
                f.waitStart = System.nanoTime();
                w.requestId = 1;
                w.kind = "Mono.block";
                w.outcome = "ok";
                sleep(60);
                w.commit();
                ContractEvents.Segment s2 = new ContractEvents.Segment();
                s2.begin();
                f.seg2Start = System.nanoTime();
                s2.requestId = 1;
                s2.kind = "resume";
                sleep(20);
                s2.commit();
                req.requestId = 1;
                req.name = NAME;
                req.outcome = "ok";
                req.startThread = Thread.currentThread();
                req.commit();
            }, "kj-caller");
            caller.start();
            caller.join();
            if (clockSync) {
                sync();
            }
            r.stop();
            r.dump(jfr);
        }
        return f;
    }

    /**
     * The eBPF side, in CLOCK_MONOTONIC: on kj-caller inside the wait, one futex call that goes off CPU
     * twice (20 ms woken by kj-loop's futex wake, 2 ms run queue; 2 ms woken by an interrupt, 0.5 ms
     * run queue); 3 ms preempted (state R) inside the first segment; one interval before every place;
     * on kj-loop 4 ms inside its segment; one interval of a thread the recording does not know.
     */
    public List<String> events() {
        List<String> lines = new ArrayList<>();
        long a = waitStart + 10 * MS;
        lines.add(line(callerTid, "kj-caller", a, a + 20 * MS, "S", a + 18 * MS,
                waker(loopTid, "kj-loop", "task"), futex(a - MS), wakerFutex("FUTEX_WAKE")));
        long b = waitStart + 32 * MS;
        lines.add(line(callerTid, "kj-caller", b, b + 2 * MS, "S", b + 1_500_000,
                waker(0, "swapper/0", "hardirq"), futex(a - MS), "null"));
        long c = seg1Start + 5 * MS;
        lines.add(line(callerTid, "kj-caller", c, c + 3 * MS, "R", -1, "null", "null", "null"));
        long d = seg1Start - 500 * MS;
        lines.add(line(callerTid, "kj-caller", d, d + 3 * MS, "S", d + 2 * MS, waker(loopTid, "kj-loop", "task"), "null", "null"));
        long e = loopSegStart + 5 * MS;
        lines.add(line(loopTid, "kj-loop", e, e + 4 * MS, "S", e + 4 * MS, waker(callerTid, "kj-caller", "task"), "null", "null"));
        lines.add(line(999_999_999L, "stranger", c, c + MS, "S", c + MS, "null", "null", "null"));
        return lines;
    }

    /**
     * The same intervals as offwake --stack-every {@code every} writes them: the first (kj-caller woken by
     * kj-loop) and the stranger's sampled (weight {@code every}), the preempted one not sampled at all
     * (weight 1: never walked), the rest not sampled (weight 0, no stacks), and the summary line last.
     */
    public List<String> sampledEvents(int every) {
        List<String> lines = new ArrayList<>();
        int[] weights = {every, 0, 1, 0, 0, every};
        List<String> all = events();
        for (int k = 0; k < all.size(); k++) {
            String line = all.get(k).replace(",\"stack\":", ",\"stack_weight\":" + weights[k] + ",\"stack\":");
            if (weights[k] == 0) {
                line = line.replace("[\"__schedule\"]", "[]").replace("[\"try_to_wake_up\",\"futex_wake\"]", "[]")
                        .replace("[\"Waker.wake\",\"Loop.run\"]", "[]");
            }
            lines.add(line);
        }
        lines.add("{\"summary\":{\"intervals\":6,\"futex_waits\":2,\"missed_stacks\":0,\"lost_records\":0,"
                + "\"lost_intervals\":0,\"lost_futex_calls\":0,\"target_exited\":false,\"stack_every\":" + every
                + ",\"sampled_intervals\":2}}");
        return lines;
    }

    public Path writeEvents(Path file) throws Exception {
        Files.write(file, events());
        return file;
    }

    static String line(long tid, String comm, long off, long on, String state, long wakeup, String waker, String futex,
                       String wakerFutex) {
        String runq = wakeup >= 0 ? Long.toString(on - wakeup) : "R".equals(state) ? Long.toString(on - off) : "null";
        return String.format(Locale.ROOT, "{\"pid\":1,\"tid\":%d,\"comm\":\"%s\",\"off_ns\":%d,\"on_ns\":%d,"
                        + "\"offcpu_ns\":%d,\"state\":\"%s\",\"waking_ns\":%s,\"wakeup_ns\":%s,\"runq_ns\":%s,"
                        + "\"waker\":%s,\"futex\":%s,\"waker_futex\":%s,\"stack\":{\"kernel\":[\"__schedule\"],\"user\":[]},"
                        + "\"waker_stack\":%s}",
                tid, comm, off, on, on - off, state, wakeup >= 0 ? wakeup : "null", wakeup >= 0 ? wakeup : "null", runq,
                waker, futex, wakerFutex, "null".equals(waker) ? "null"
                        : "{\"kernel\":[\"try_to_wake_up\",\"futex_wake\"],\"user\":[\"Waker.wake\",\"Loop.run\"]}");
    }

    static String waker(long tid, String comm, String context) {
        return String.format(Locale.ROOT, "{\"pid\":1,\"tid\":%d,\"comm\":\"%s\",\"context\":\"%s\"}", tid, comm, context);
    }

    static String futex(long enter) {
        return String.format(Locale.ROOT, "{\"uaddr\":\"0x10\",\"op\":137,\"cmd\":\"FUTEX_WAIT_BITSET\",\"enter_ns\":%d,"
                + "\"exit_ns\":null,\"duration_ns\":null,\"ret\":null}", enter);
    }

    static String wakerFutex(String cmd) {
        return "{\"uaddr\":\"0x10\",\"op\":129,\"cmd\":\"" + cmd + "\"}";
    }

    private static void request(long id, ContractEvents.Segment s) {
        ContractEvents.Request req = new ContractEvents.Request();
        req.begin();
        req.requestId = id;
        req.name = NAME;
        req.outcome = "ok";
        req.startThread = Thread.currentThread();
        req.commit();
    }

    private static void sync() {
        ContractEvents.ClockSync sync = new ContractEvents.ClockSync();
        sync.begin();
        sync.monotonicNanos = System.nanoTime();
        sync.commit();
    }

    /** The Linux thread id of the calling thread, what JFR records as {@code osThreadId}. */
    static long tid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        } catch (Exception e) {
            throw new IllegalStateException("needs Linux /proc/thread-self", e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
