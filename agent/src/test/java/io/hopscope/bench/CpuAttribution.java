package io.hopscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * How much of a process's CPU the agent's own code takes, from the CPU samples of a recording made
 * under the agent with {@code asprof=itimer} (agent/bench/attribution.sh runs the whole thing).
 *
 * <p>A whole-sample throughput ratio subtracts two noisy runs; this reads one run's samples and
 * charges each to the code that asked for the work: the leafmost frame that is not the JDK, the JVM
 * or a native library. A sample in {@code EventWriter} or {@code ThreadLocal.get} called from the
 * agent is the agent's; the same frames called from OkHttp are OkHttp's. What it cannot see is the
 * agent's indirect cost (advice bytecode inlined into the application's methods, larger compiled
 * code, more allocation for the GC, the JFR threads): so the agent's share here is a floor of what
 * it costs, and the throughput ratio (compare.sh) the whole.
 *
 * <p>USAGE: {@code CpuAttribution RECORDING.jfr FROM_SECOND TO_SECOND [CPU_US_PER_REQUEST]}: only
 * samples between those seconds of the recording count (the measured window, without the warm-up
 * and the JVM's exit); with the run's CPU time per request the agent's share is also given in
 * microseconds per request.
 */
public final class CpuAttribution {

    static final String AGENT_PACKAGE = "io.hopscope.agent.";

    private CpuAttribution() {
    }

    /** Who a sample is charged to. */
    enum Owner { AGENT, APPLICATION, RUNTIME }

    /**
     * The owner of a sample whose frames' class names are given leaf first, and the agent method it
     * is charged to (null unless the owner is the agent). A native frame's "class" is its library
     * (libc.so.6, libjvm.so, vdso), which async-profiler's recording gives as the frame's type.
     */
    static Charge charge(List<String> classNames, List<String> methodNames) {
        for (int i = 0; i < classNames.size(); i++) {
            String type = classNames.get(i);
            if (isPlatform(type)) {
                continue;
            }
            if (type.startsWith(AGENT_PACKAGE)) {
                String outer = type.indexOf('$') > 0 ? type.substring(0, type.indexOf('$')) : type;
                return new Charge(Owner.AGENT, outer.substring(AGENT_PACKAGE.length()) + "." + methodNames.get(i));
            }
            return new Charge(Owner.APPLICATION, null);
        }
        // Only JDK, JVM and native frames: GC, the compilers, JFR's threads, a thread parked in the JDK.
        return new Charge(Owner.RUNTIME, null);
    }

    /** The JDK's and JVM's own code, and native libraries: charged to whoever called them. */
    static boolean isPlatform(String type) {
        return type.isEmpty() || type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
                || type.startsWith("sun.") || type.startsWith("com.sun.") || type.startsWith(".")
                || type.startsWith("lib") || type.startsWith("vdso") || type.startsWith("[");
    }

    record Charge(Owner owner, String agentMethod) {
    }

    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: CpuAttribution RECORDING.jfr FROM_SECOND TO_SECOND [CPU_US_PER_REQUEST]");
            System.exit(2);
        }
        Path recording = Path.of(args[0]);
        if (!Files.isReadable(recording)) {
            System.err.println("attribution: cannot read " + recording);
            System.exit(2);
        }
        Duration fromSecond;
        Duration toSecond;
        double cpuMicrosPerRequest;
        try {
            fromSecond = Duration.ofSeconds(Long.parseLong(args[1]));
            toSecond = Duration.ofSeconds(Long.parseLong(args[2]));
            cpuMicrosPerRequest = args.length == 4 ? Double.parseDouble(args[3]) : Double.NaN;
        } catch (NumberFormatException e) {
            System.err.println("attribution: FROM_SECOND and TO_SECOND must be whole seconds and CPU_US_PER_REQUEST"
                    + " a number: " + String.join(" ", args));
            System.exit(2);
            return;
        }

        List<RecordedEvent> samples = new ArrayList<>();
        Instant first = null;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (first == null || e.getStartTime().isBefore(first)) {
                    first = e.getStartTime();
                }
                if (e.getEventType().getName().equals("jdk.ExecutionSample") && e.getStackTrace() != null) {
                    samples.add(e);
                }
            }
        } catch (IOException e) {
            System.err.println("attribution: " + recording + " is not a readable JFR recording: " + e.getMessage());
            System.exit(2);
        }
        if (first == null) {
            System.err.println("attribution: " + recording + " holds no events");
            System.exit(2);
        }
        Instant from = first.plus(fromSecond);
        Instant to = first.plus(toSecond);
        Map<Owner, Long> owners = new HashMap<>();
        Map<String, Long> agentMethods = new HashMap<>();
        long n = 0;
        for (RecordedEvent e : samples) {
            if (e.getStartTime().isBefore(from) || e.getStartTime().isAfter(to)) {
                continue;
            }
            RecordedStackTrace stack = e.getStackTrace();
            List<String> types = new ArrayList<>();
            List<String> methods = new ArrayList<>();
            for (RecordedFrame f : stack.getFrames()) {
                types.add(f.getMethod().getType().getName());
                methods.add(f.getMethod().getName());
            }
            Charge c = charge(types, methods);
            owners.merge(c.owner(), 1L, Long::sum);
            if (c.agentMethod() != null) {
                agentMethods.merge(c.agentMethod(), 1L, Long::sum);
            }
            n++;
        }
        if (n == 0) {
            System.err.println("attribution: no CPU samples between seconds " + fromSecond.toSeconds() + " and "
                    + toSecond.toSeconds() + " of " + recording + " (was the agent run with asprof=itimer?)");
            System.exit(2);
        }
        System.out.printf(Locale.ROOT, "samples: %d (seconds %d-%d of the recording)%n", n, fromSecond.toSeconds(),
                toSecond.toSeconds());
        for (Owner o : Owner.values()) {
            long k = owners.getOrDefault(o, 0L);
            double p = (double) k / n;
            // Binomial standard error of a share: the samples are independent draws of where the CPU is.
            double se = Math.sqrt(p * (1 - p) / n);
            System.out.printf(Locale.ROOT, "%-12s %6.2f%% +- %.2f%%%s%n", o.name().toLowerCase(Locale.ROOT), 100 * p,
                    100 * se, Double.isNaN(cpuMicrosPerRequest) ? ""
                            : String.format(Locale.ROOT, "  (%.2f us of %.1f us per request)", p * cpuMicrosPerRequest,
                                    cpuMicrosPerRequest));
        }
        System.out.println("agent methods (share of all samples):");
        long total = n;
        agentMethods.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(20)
                .forEach(m -> System.out.printf(Locale.ROOT, "  %6.2f%% %s%n", 100.0 * m.getValue() / total, m.getKey()));
    }
}
