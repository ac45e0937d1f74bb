package io.hopscope.analyzer.model;

import java.util.List;

/**
 * One off-CPU interval of one thread from {@code bpf/offwake.py --events}, with its times already
 * mapped to the recording's epoch nanoseconds. {@code wakeupEpochNanos} and {@code runQueueNanos} are
 * -1 when no wakeup was seen; {@code wakerTid} is -1 and {@code wakerComm} null when nothing woke it.
 * {@code futexWait} is true when the thread slept in a futex wait call (entered at
 * {@code futexEnterEpochNanos}); {@code futexWake} when the waker woke it from a futex wake call on the
 * same address. {@code wakerStack} is the waker's user then kernel frames, innermost first.
 * {@code stack} and {@code wakerFrames} are both sides' whole stacks as offwake wrote them, for the
 * offwake flame graph ({@code wakerFrames} null when nothing woke the thread). {@code stackWeight} is how
 * many intervals those stacks stand for: offwake --stack-every N walks the stacks of one interval in N,
 * drawn at random, and gives it N, the others 0 (no stacks; their times, waker and futex call are still
 * exact); 1 for an interval whose stacks are not sampled (every interval's with --stack-every 1).
 */
public record OffCpuInterval(long tid, String comm, long offEpochNanos, long onEpochNanos, String state,
                             long wakeupEpochNanos, long runQueueNanos, long wakerTid, String wakerComm,
                             String wakerContext, boolean futexWait, long futexEnterEpochNanos, boolean futexWake,
                             List<String> wakerStack, Frames stack, Frames wakerFrames, int stackWeight) {

    /** One side's stacks, innermost frame first; a list is null when offwake could not read it (a missed stack). */
    public record Frames(List<String> kernel, List<String> user) {

        /**
         * Adds {@code stack}'s user then kernel frames to {@code frames}, each from the root, as the
         * flame graphs draw a thread's off-CPU stack; a {@code [Missed ... Stack]} frame for one not read.
         */
        public static void addRootFirst(List<String> frames, Frames stack) {
            rootFirst(frames, stack == null ? null : stack.user(), "[Missed User Stack]");
            rootFirst(frames, stack == null ? null : stack.kernel(), "[Missed Kernel Stack]");
        }

        private static void rootFirst(List<String> frames, List<String> innermostFirst, String missed) {
            if (innermostFirst == null) {
                frames.add(missed);
                return;
            }
            for (int k = innermostFirst.size() - 1; k >= 0; k--) {
                frames.add(innermostFirst.get(k));
            }
        }
    }

    /** The same interval without its stacks, for keeping many of them (the trace's slices need none). */
    public OffCpuInterval withoutStacks() {
        return new OffCpuInterval(tid, comm, offEpochNanos, onEpochNanos, state, wakeupEpochNanos, runQueueNanos, wakerTid,
                wakerComm, wakerContext, futexWait, futexEnterEpochNanos, futexWake, List.of(), null, null, stackWeight);
    }

    public long offCpuNanos() {
        return onEpochNanos - offEpochNanos;
    }

    /** Start of the run-queue part: the wakeup, or the switch out for a thread that stayed runnable. */
    public long runQueueStartEpochNanos() {
        if (wakeupEpochNanos >= 0) {
            return wakeupEpochNanos;
        }
        return state != null && state.startsWith("R") ? offEpochNanos : -1;
    }
}
