package io.hopscope.analyzer.model;

import java.util.List;

/**
 * Who woke a request's thread: the waker's name (the recording's thread name when its OS id is known
 * there, else its kernel name, cut at 15 bytes), the woken thread, where the woken thread was
 * ({@code during}: a wait kind such as {@code Mono.block}, or {@code segment}), how many wakeups, how
 * many of them were futex wakes on the address the thread waited on, how many waits (of kind
 * {@code during}) it ended (it did the last wakeup inside them), the off-CPU and run-queue time those
 * wakeups ended, and the most frequent waker stacks.
 */
public record Waker(String waker, String thread, String during, long count, long futexWakes, long waitsEnded,
                    long offCpuNanos, long runQueueNanos, List<WakerStack> topStacks) {

    /** One waker stack (frames innermost first, joined by {@code ;}) and how often it woke the thread. */
    public record WakerStack(String stack, long count) {
    }
}
