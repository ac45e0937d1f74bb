package io.hopscope.bench;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Scope;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What reading the trace context costs a request, by the calling thread's CPU time (as {@link HookCpuCost}):
 * an empty {@code requests=} boundary ({@link #request}) called in a loop, outside any span and inside
 * one made current through the OpenTelemetry API. Run under the agent with
 * {@code requests=io.hopscope.bench.TraceIdCost#request}, with and without the API on the class path,
 * and against an agent that reads no trace context (agent/bench/trace-ids.sh does all four).
 * Each case: {@value #ROUNDS} rounds of {@value #CALLS_PER_ROUND} requests after as many for warm-up;
 * the least CPU per request of the rounds is printed.
 */
public final class TraceIdCost {

    static final int ROUNDS = 5;
    static final int CALLS_PER_ROUND = 200_000;

    private TraceIdCost() {
    }

    /** The request boundary: a whole request, begun and ended, and nothing in it. */
    public static long request(long i) {
        return i + 1;
    }

    public static void main(String[] args) {
        report("request, no span current", TraceIdCost::loop);
        boolean api;
        try {
            Class.forName("io.opentelemetry.api.trace.Span");
            api = true;
        } catch (ClassNotFoundException absent) {
            api = false;
        }
        if (api) {
            report("request, in a span", InSpan::loop);
        } else {
            System.out.println("(no OpenTelemetry API on the class path: no span case)");
        }
    }

    static long loop() {
        long sink = 0;
        for (int i = 0; i < CALLS_PER_ROUND; i++) {
            sink += request(i);
        }
        return sink;
    }

    /** The API's classes only here: the case without them on the class path never loads this class. */
    static final class InSpan {
        static long loop() {
            Span span = Span.wrap(SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                    TraceFlags.getSampled(), TraceState.getDefault()));
            try (Scope ignored = span.makeCurrent()) {
                return TraceIdCost.loop();
            }
        }
    }

    interface Case {
        long run();
    }

    private static void report(String name, Case c) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double best = Double.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 2 * ROUNDS; round++) {
            long start = threads.getCurrentThreadCpuTime();
            sink += c.run();
            double perCall = (threads.getCurrentThreadCpuTime() - start) / (double) CALLS_PER_ROUND;
            if (round >= ROUNDS) {
                best = Math.min(best, perCall);
            }
        }
        System.out.printf("%-26s %8.1f ns CPU/request (least of %d rounds of %,d; %d)%n", name, best, ROUNDS,
                CALLS_PER_ROUND, sink & 1);
    }
}
