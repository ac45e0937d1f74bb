package io.hopscope.agent;

import io.hopscope.agent.asprof.AsyncProfilerRecording;
import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.settings.AgentOptions;
import io.hopscope.settings.AttachProperties;
import java.io.StringReader;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/** Starts the agent's own recording for {@code jfr=}, once the instrumentations are installed. */
final class AgentRecording {

    private AgentRecording() {
    }

    /**
     * Starts the jfr= recording, if asked for: with hopscope's settings as the options change them,
     * JFR's stack depth raised, the JIT trained on JFR's writer first, and async-profiler writing it
     * for asprof=. A recording that cannot start is one stderr line; the instrumentation stays on.
     */
    static void start(AgentOptions options, Instrumentation instrumentation, boolean debug) {
        AsyncProfilerRecording.Settings asprof = options.asprof() == null ? null
                : AsyncProfilerRecording.parse(options.asprof(), System.err::println);
        if (options.asprof() != null && options.jfrPath() == null) {
            System.err.println("hopscope: asprof= needs jfr=PATH (async-profiler writes that recording); not started");
        }
        if (options.jfrPath() == null) {
            return;
        }
        try {
            String jfc = RecordingSettings.jfc(options.lockStacks(), options.spanThreshold());
            String shallow = StackDepth.raise(instrumentation); // before the first recording
            if (shallow != null) {
                System.err.println(shallow);
                System.setProperty(AttachProperties.SHALLOW_STACKS, shallow);
            }
            trainJit(debug);
            if (asprof == null || !AsyncProfilerRecording.start(asprof, Path.of(options.jfrPath()), jfc)) {
                startRecording(options.jfrPath(), jfc);
            }
            System.setProperty(AttachProperties.RECORDING, Path.of(options.jfrPath()).toAbsolutePath().toString());
        } catch (Exception e) {
            // The instrumentation stays on: events still go to any recording the user starts.
            System.err.println("hopscope: cannot record to jfr=" + options.jfrPath() + " (" + e.getMessage()
                    + "); no recording started, check that the directory exists and is writable");
        }
    }

    /**
     * Runs {@link JitTraining} before the jfr= recording starts. An optimisation only: if it fails,
     * the failure is an AgentError and the recording starts all the same.
     */
    private static void trainJit(boolean debug) {
        long start = System.nanoTime();
        try {
            boolean trained = JitTraining.run();
            if (debug) {
                System.err.println("hopscope: JIT training of the JFR writer " + (trained
                        ? "took " + (System.nanoTime() - start) / 1_000_000 + " ms"
                        : "skipped (a recording is already running)"));
            }
        } catch (RuntimeException e) {
            AgentErrors.reportTask("jit-training", "", e);
        }
    }

    private static void startRecording(String path, String jfc) throws Exception {
        Configuration configuration = Configuration.create(new StringReader(jfc));
        Recording recording = new Recording(configuration);
        recording.setName("hopscope");
        recording.setToDisk(true);
        // Written at JVM exit, and to the same file by `jcmd PID JFR.dump name=hopscope`.
        recording.setDestination(Path.of(path));
        recording.setDumpOnExit(true);
        recording.start();
    }
}
