package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/** Runs a program on a separate JVM with the shaded agent jar, the way users run it. */
public final class AgentRun {

    public final int exitCode;
    public final String stdout;
    public final String stderr;
    public final Path recording;

    private AgentRun(int exitCode, String stdout, String stderr, Path recording) {
        this.exitCode = exitCode;
        this.stdout = stdout;
        this.stderr = stderr;
        this.recording = recording;
    }

    /**
     * The JIT and collector of the JVMs these tests start: C1 only and the serial collector. A JVM
     * with the agent spends most of its CPU of a short run in C2 compiling the agent's work
     * (docs/performance.md, "First seconds"); C1 alone halves it (docs/performance.md, "Test suite"),
     * and what a test asserts (events, hops, waits, exit codes) does not depend on which compiler ran
     * the code. The flags are the root pom's {@code test.jvm.flags}, which Maven passes in the system
     * property {@code hopscope.test.jvm.flags}. Tests of the JIT itself or of memory start their JVMs with the defaults
     * ({@link #runWithDefaultJvm}).
     */
    public static List<String> shortJvmFlags() {
        String flags = System.getProperty("hopscope.test.jvm.flags");
        if (flags == null || flags.isBlank()) {
            throw new IllegalStateException("system property hopscope.test.jvm.flags is not set: run the tests"
                    + " through Maven (the root pom's test.jvm.flags)");
        }
        return List.of(flags.strip().split("\\s+"));
    }

    public static Path agentJar() {
        return Path.of(System.getProperty("hopscope.agent.jar", "target/hopscope-agent.jar")).toAbsolutePath();
    }

    public static Path workDir() throws IOException {
        Path dir = Path.of(System.getProperty("hopscope.work", "target/it-work"));
        Files.createDirectories(dir);
        return dir;
    }

    /**
     * Runs {@code java [-javaagent:agent=options] args...} and waits for it; {@code options} may
     * contain {@code %JFR%}, replaced by a fresh recording path. On the JDK 11 ({@link Jdk11}), the
     * test classes' directory in {@code args} (a class path) stands for their JDK 11 build; with
     * {@link Jdk11#MISSING} for {@code java}, the test is skipped with that reason.
     */
    public static AgentRun run(String java, String options, List<String> args) throws Exception {
        return run(java, shortJvmFlags(), options, args, chaosSeed(), 120);
    }

    /** {@link #run(String, String, List)} on a JVM with its default JIT and collector. */
    public static AgentRun runWithDefaultJvm(String java, String options, List<String> args) throws Exception {
        return run(java, List.of(), options, args, chaosSeed(), 120);
    }

    /**
     * {@link #run(String, String, List)} with other java agents before hopscope's: {@code before}
     * (their {@code -javaagent} and options) comes ahead of hopscope's {@code -javaagent} on the
     * command line, so that their premain runs first, as a {@code JAVA_TOOL_OPTIONS} agent's does.
     */
    public static AgentRun runAfterAgents(String java, List<String> before, String options, List<String> args)
            throws Exception {
        List<String> flags = new ArrayList<>(shortJvmFlags());
        flags.addAll(before);
        return run(java, flags, options, args, chaosSeed(), 120);
    }

    /** hopscope.chaos.seed, or null where it is not set. */
    private static String chaosSeed() {
        String seed = System.getProperty(Chaos.SEED_PROPERTY);
        return seed == null || seed.isBlank() ? null : seed.strip();
    }

    /**
     * {@link #run(String, String, List)} under the timing chaos, whatever hopscope.chaos.seed says:
     * the program sets the seed (io.hopscope.testapps.ChaosApp, which runs several seeds one after
     * another, so it may take up to {@code timeoutSeconds}).
     */
    public static AgentRun runUnderChaos(String java, String options, List<String> args, int timeoutSeconds)
            throws Exception {
        return run(java, shortJvmFlags(), options, args, "", timeoutSeconds);
    }

    /** {@code chaosSeed}: null, no chaos; empty, the chaos with no seed of its own (the program sets it); else its seed. */
    private static AgentRun run(String java, List<String> jvmFlags, String options, List<String> args,
            String chaosSeed, int timeoutSeconds) throws Exception {
        if (Jdk11.MISSING.equals(java)) {
            CiSkip.now("JDK 11 run skipped: " + Jdk11.MISSING);
        }
        if (Jdk11.is(java)) {
            String classes = System.getProperty("hopscope.test.classes");
            String classes11 = Jdk11.testClasses().toString();
            args = args.stream().map(a -> a.replace(classes, classes11)).collect(Collectors.toList());
        }
        Path dir = workDir();
        Path recording = Files.createTempFile(dir, "run-", ".jfr");
        Files.delete(recording);
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmFlags);
        if (options != null) {
            command.add("-javaagent:" + agentJar() + (options.isEmpty() ? "" : "=" + options.replace("%JFR%",
                    recording.toString())));
            if (chaosSeed != null) {
                command.add(chaosAgent(java, chaosSeed));
            }
        }
        command.addAll(args);
        Path out = Files.createTempFile(dir, "out-", ".txt");
        Path err = Files.createTempFile(dir, "err-", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            String threads = threadDump(java, process.pid());
            process.destroyForcibly();
            throw new AssertionError("timed out after " + timeoutSeconds + " s: " + command + "\nits stdout: "
                    + tail(Files.readString(out, StandardCharsets.UTF_8)) + "\nits stderr: "
                    + tail(Files.readString(err, StandardCharsets.UTF_8)) + "\nits threads, virtual ones included: "
                    + threads);
        }
        return new AgentRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), recording);
    }

    /**
     * The threads of a JVM that did not end in time, virtual ones included (JDK 21+: jcmd's
     * Thread.dump_to_file; before, Thread.print), by the jcmd beside {@code java}: what a hang that
     * shows once in many runs is made of, in the failure's message. Never throws.
     */
    static String threadDump(String java, long pid) {
        try {
            Path jcmd = Path.of(java).resolveSibling("jcmd");
            if (!Files.isExecutable(jcmd)) {
                return "no jcmd beside " + java;
            }
            Path file = Files.createTempFile(workDir(), "threads-", ".txt");
            Files.delete(file);
            String dump = jcmdOutput(jcmd, pid, "Thread.dump_to_file", "-format=text", file.toString());
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.UTF_8);
            }
            return dump + "\n" + jcmdOutput(jcmd, pid, "Thread.print");
        } catch (Exception e) {
            return "no thread dump: " + e;
        }
    }

    private static String jcmdOutput(Path jcmd, long pid, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        line.addAll(List.of(command));
        Process p = new ProcessBuilder(line).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new String(output, StandardCharsets.UTF_8);
    }

    /** The last 4,000 characters of a JVM's output. */
    private static String tail(String output) {
        return output.length() <= 4_000 ? output : "..." + output.substring(output.length() - 4_000);
    }

    /**
     * The fault agent in mode chaos ({@link Chaos}), the second java agent, of {@code seed} (empty:
     * the program sets it). With the system property {@code hopscope.chaos.seed} set (docs/tests.md),
     * every JVM these tests start with the agent runs under it, of that seed: a test's exact checks
     * must hold whatever the seed.
     */
    private static String chaosAgent(String java, String seed) throws IOException {
        Path delayed = Files.createTempFile(workDir(), "chaos-", ".txt");
        return "-javaagent:" + chaosJar(Jdk11.is(java)) + "=chaos" + (seed.isEmpty() ? "" : ":" + Long.parseLong(seed))
                + "," + delayed;
    }

    /** The fault agent's jar for chaos runs (its JDK 11 build for a JDK 11), written once per test JVM. */
    public static synchronized Path chaosJar(boolean jdk11) throws IOException {
        Path jar = workDir().resolve(jdk11 ? "chaos-agent-jdk11.jar" : "chaos-agent.jar");
        if (!CHAOS_JARS.contains(jar)) {
            FaultAgent.jar(jar, jdk11 ? Jdk11.testClasses() : null);
            CHAOS_JARS.add(jar);
        }
        return jar;
    }

    private static final List<Path> CHAOS_JARS = new ArrayList<>();

    public static AgentRun run(String options, List<String> args) throws Exception {
        return run(javaHere(), options, args);
    }

    /** {@link #run(String, List)} on a JVM with its default JIT and collector. */
    public static AgentRun runWithDefaultJvm(String options, List<String> args) throws Exception {
        return runWithDefaultJvm(javaHere(), options, args);
    }

    /** This JVM's java, the one the tests run on. */
    public static String javaHere() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public List<RecordedEvent> events() throws IOException {
        assertThat(recording).as("recording of the run; stderr: %s", stderr).exists();
        return RecordingFile.readAllEvents(recording);
    }

    /**
     * The requests of a run that went as it should: exit 0, no hopscope line on stderr, no
     * AgentError event; at least {@code atLeast} of them (a sample adds its warm-up requests).
     */
    public Map<Long, Requests.Request> cleanRequests(int atLeast) throws IOException {
        assertThat(exitCode).as(stderr).isZero();
        assertThat(agentLines()).isEmpty();
        List<RecordedEvent> events = events();
        assertThat(events).noneMatch(e -> e.getEventType().getName().equals("hopscope.AgentError"));
        Map<Long, Requests.Request> requests = Requests.byId(events);
        assertThat(requests.size()).isGreaterThanOrEqualTo(atLeast);
        return requests;
    }

    /** stderr without the JVM's own notes (the CDS warning caused by appending to the boot path). */
    public List<String> agentLines() {
        return agentLinesOf(stderr);
    }

    /** The hopscope lines of a stderr text. */
    public static List<String> agentLinesOf(String stderr) {
        List<String> lines = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            if (line.startsWith("hopscope:")) {
                lines.add(line);
            }
        }
        return lines;
    }
}
