package io.hopscope.samples.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the bench finds what it runs, all relative to the samples jar in a built checkout
 * (samples/target/hopscope-samples.jar): the agent jar, the OpenTelemetry agent and async-profiler
 * that the samples build copies to samples/target/bench/, bpf/, the analyzer, the floor's agents it
 * writes into the work folder; and the JVM options of each configuration, or why a configuration
 * cannot run here.
 */
final class BenchTools {

    static final String PYTHON = "/usr/bin/python3";
    static final String TIME = "/usr/bin/time";

    final Path root;
    final Path samplesTarget;
    final Path agentJar;
    /** The second build of {@code hopscope-b}, or null. */
    final Path agentJarB;
    final Path java;
    final Path work;
    private Path asprofLibrary;
    private String offwakeWhyNot;
    private LiveWatch.Sink sink;
    private FloorAgents floorAgents;

    BenchTools(Path agentJar, Path agentJarB, Path java, Path work) {
        this.samplesTarget = samplesTarget();
        this.root = samplesTarget.getParent().getParent();
        this.agentJar = agentJar != null ? agentJar : root.resolve("agent/target/hopscope-agent.jar");
        this.agentJarB = agentJarB;
        this.java = java;
        this.work = work;
    }

    /** samples/target: the folder of the samples jar, or of target/classes when run from the build. */
    private static Path samplesTarget() {
        try {
            Path location = Path.of(BenchTools.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return location.toAbsolutePath().getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    Path otelJar() {
        return samplesTarget.resolve("bench/opentelemetry-javaagent.jar");
    }

    Path asprofJar() {
        return samplesTarget.resolve("bench/async-profiler.jar");
    }

    Path offwake() {
        return root.resolve("bpf/offwake.py");
    }

    Path analyzerJar() {
        return root.resolve("analyzer/target/hopscope.jar");
    }

    /** The bare jdk.jfr.consumer pass of analyzer/bench (test classes: not in the analyzer jar). */
    Path parseFloorClasses() {
        return root.resolve("analyzer/target/test-classes");
    }

    /** The endpoint the bench's lives export to, made at the first one that needs it. */
    synchronized LiveWatch.Sink sink() throws java.io.IOException {
        if (sink == null) {
            sink = new LiveWatch.Sink();
        }
        return sink;
    }

    /** The floor's agent jars, written into the work folder at the first run that needs them. */
    synchronized FloorAgents floorAgents() throws Unavailable {
        if (floorAgents == null) {
            Path dir = work.resolve("floor-agents");
            try {
                floorAgents = FloorAgents.write(dir);
            } catch (IOException e) {
                throw new Unavailable("cannot write the floor's agent jars into " + dir + ": " + e.getMessage());
            }
        }
        return floorAgents;
    }

    /** The JVM options of a configuration for one run in {@code runDir}; throws with the reason it cannot run. */
    List<String> jvmOptions(Configuration config, Path runDir) throws Unavailable {
        Path jfr = runDir.resolve("recording.jfr");
        List<String> options = new ArrayList<>();
        switch (config) {
            case NONE:
                break;
            case EMPTY_AGENT:
                options.add("-javaagent:" + floorAgents().emptyAgent());
                break;
            case BOOT_APPEND:
                options.add(floorAgents().bootAppendOption());
                break;
            case HOPSCOPE:
            case HOPSCOPE_OFFWAKE:
                requireFile(agentJar, "the hopscope agent", "build it with 'make build'");
                if (config == Configuration.HOPSCOPE_OFFWAKE && offwakeWhyNot() != null) {
                    throw new Unavailable(offwakeWhyNot());
                }
                options.add("-javaagent:" + agentJar + "=jfr=" + jfr);
                break;
            case HOPSCOPE_BACKGROUND:
                requireFile(agentJar, "the hopscope agent", "build it with 'make build'");
                options.add("-javaagent:" + agentJar + "=jfr=" + jfr + ",start=background");
                break;
            case HOPSCOPE_B:
                if (agentJarB == null) {
                    throw new Unavailable("hopscope-b runs the agent given by --agent-b, and none was given");
                }
                requireFile(agentJarB, "the --agent-b agent", "give the jar of another build");
                options.add("-javaagent:" + agentJarB + "=jfr=" + jfr);
                break;
            case HOPSCOPE_UNWATCHED:
            case HOPSCOPE_LIVE:
                requireFile(agentJar, "the hopscope agent", "build it with 'make build'");
                if (config == Configuration.HOPSCOPE_LIVE) {
                    requireFile(analyzerJar(), "the hopscope CLI (live)", "build it with 'make build'");
                }
                options.add("-javaagent:" + agentJar);
                break;
            case HOPSCOPE_ASPROF:
                requireFile(agentJar, "the hopscope agent", "build it with 'make build'");
                options.add("-javaagent:" + agentJar + "=jfr=" + jfr + ",asprof=cpu");
                break;
            case OTEL:
                requireFile(otelJar(), "the OpenTelemetry agent", "the samples build copies it there: mvn -pl samples package");
                options.add("-javaagent:" + otelJar());
                options.add("-Dotel.traces.exporter=none");
                options.add("-Dotel.metrics.exporter=none");
                options.add("-Dotel.logs.exporter=none");
                break;
            case ASPROF_WALL:
                options.add("-agentpath:" + asprofLibrary() + "=start,event=wall,file=" + jfr + ",jfr");
                break;
            case JFR_PROFILE:
                options.add("-XX:StartFlightRecording=settings=profile,filename=" + jfr);
                break;
            default:
                throw new IllegalStateException(config.toString());
        }
        return options;
    }

    /** libasyncProfiler.so for this machine, extracted once from the async-profiler jar. */
    private synchronized Path asprofLibrary() throws Unavailable {
        if (asprofLibrary != null) {
            return asprofLibrary;
        }
        requireFile(asprofJar(), "async-profiler", "the samples build copies it there: mvn -pl samples package");
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.toLowerCase().startsWith("linux")) {
            throw new Unavailable("async-profiler's library is run on Linux only here, this is " + os);
        }
        String entry = (arch.equals("aarch64") ? "linux-arm64" : "linux-x64") + "/libasyncProfiler.so";
        try (ZipFile jar = new ZipFile(asprofJar().toFile())) {
            ZipEntry e = jar.getEntry(entry);
            if (e == null) {
                throw new Unavailable(asprofJar() + " has no " + entry);
            }
            Path lib = Files.createDirectories(work.resolve("asprof")).resolve("libasyncProfiler.so");
            try (InputStream in = jar.getInputStream(e)) {
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            }
            asprofLibrary = lib;
            return lib;
        } catch (IOException e) {
            throw new Unavailable("cannot extract " + entry + " from " + asprofJar() + ": " + e.getMessage());
        }
    }

    /** Why bpf/offwake.py cannot trace a child here (null: it can); asked once. */
    synchronized String offwakeWhyNot() {
        if (offwakeWhyNot == null) {
            offwakeWhyNot = rootAndBccWhyNot(offwake());
        }
        return offwakeWhyNot.isEmpty() ? null : offwakeWhyNot;
    }

    /** "" when a bcc tool can run here as it is, else why not (as RecordCommand asks in the analyzer). */
    static String rootAndBccWhyNot(Path tool) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "not running as root, which loading BPF programs needs";
        }
        if (!Files.isRegularFile(tool)) {
            return tool + " not found";
        }
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return PYTHON + " not found";
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import bcc").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "python3 cannot import bcc (install it with bpf/setup.sh)";
            }
        } catch (IOException e) {
            return PYTHON + " does not run (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return "";
    }

    static void requireFile(Path file, String what, String howToGetIt) throws Unavailable {
        if (!Files.isRegularFile(file)) {
            throw new Unavailable(what + " not found at " + file + "; " + howToGetIt);
        }
    }

    /** A configuration or a tool row that cannot run on this machine: the row says why, the bench goes on. */
    static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }
}
