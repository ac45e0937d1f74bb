package io.hopscope.analyzer.model;

/** From folded {@code offwaketime -f} input: total off-CPU time of threads named {@code wakee} woken by {@code waker}. */
public record WakePair(String wakee, String waker, long totalMicros, long stacks) {
}
