package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.SampleServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 21's record: a sample run under the agent by {@code record}, its folder of files, its exit code. */
class RecordCommandIT {

    static Path samples;
    static String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path dir;

    @BeforeAll
    static void needs() {
        Paths.needBuiltJars();
        samples = Paths.samplesJar();
    }

    @Test
    void misuseIsOneLineAndExit2() throws Exception {
        Cli noDashes = Cli.run("record", "-o", dir.resolve("a").toString(), java, "Main");
        assertThat(noDashes.exitCode()).isEqualTo(2);
        assertThat(noDashes.err()).contains("give the command to record after --").contains("Usage: hopscope record");
        // Without --, the command's own options are taken for record's: a usage error too.
        Cli optionsNoDashes = Cli.run("record", "-o", dir.resolve("a").toString(), java, "-version");
        assertThat(optionsNoDashes.exitCode()).isEqualTo(2);
        assertThat(optionsNoDashes.err()).contains("Unknown option: '-version'").contains("Usage: hopscope record");
        Cli noCommand = Cli.run("record", "-o", dir.resolve("a").toString(), "--");
        assertThat(noCommand.exitCode()).isEqualTo(2);
        assertThat(noCommand.err()).contains("give the command to record after --");
        Cli notJava = Cli.run("record", "-o", dir.resolve("a").toString(), "--", "sleep", "1");
        assertThat(notJava.exitCode()).isEqualTo(2);
        assertThat(notJava.err()).contains("must start with a java executable, got sleep");
        Cli ownJfr = Cli.run("record", "-o", dir.resolve("a").toString(), "--agent-options", "jfr=x.jfr", "--", java, "-version");
        assertThat(ownJfr.exitCode()).isEqualTo(2);
        assertThat(ownJfr.err()).contains("jfr= is chosen by record");
        // A folder under a regular file cannot be made, whoever runs the test (root writes anywhere else).
        Path file = Files.writeString(dir.resolve("file"), "x");
        Cli unwritable = Cli.run("record", "-o", file.resolve("out").toString(), "--", java, "-version");
        assertThat(unwritable.exitCode()).isEqualTo(2);
        assertThat(unwritable.err().strip()).startsWith("hopscope: " + file.resolve("out") + ": cannot create the record folder")
                .doesNotContain("\n");
        Cli noAgent = Cli.run("record", "-o", dir.resolve("a").toString(), "--agent", dir.resolve("none.jar").toString(),
                "--", java, "-version");
        assertThat(noAgent.exitCode()).isEqualTo(2);
        assertThat(noAgent.err().strip()).isEqualTo("hopscope: record: " + dir.resolve("none.jar") + ": no such agent jar (--agent)");
        // -o is a folder: - (stdout) is not one.
        Cli dash = Cli.run("record", "-o", "-", "--", java, "-version");
        assertThat(dash.exitCode()).isEqualTo(2);
        assertThat(dash.err().strip()).startsWith("hopscope: record: -o is the folder for recording.jfr and its reports")
                .doesNotContain("\n");
        assertThat(Path.of("-")).doesNotExist();
        assertThat(dir.resolve("a")).doesNotExist();
    }

    @Test
    void recordsThePipelineAndWritesEveryReport() throws Exception {
        Path out = dir.resolve("run");
        Cli r = Cli.run(recordShortJvm(List.of("-o", out.toString()), "-jar", samples.toString(),
                "pipeline", "--http-client", "netty", "--mode", "sync-over-async", "--count", "50"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("record: wrote " + out.toAbsolutePath());
        for (String f : List.of("recording.jfr", "report.json", "report.html", "report.txt")) {
            assertThat(out.resolve(f)).isNotEmptyFile();
        }
        List<JsonNode> requests = requests(out);
        // Bounded as report --format json: the worst 100 and a sample of the rest, which 50 requests all fit.
        JsonNode kept = new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("requestsKept");
        assertThat(kept.get("all").asBoolean()).isFalse();
        assertThat(kept.get("worst").asInt() + kept.get("sampled").asInt() + warmupRequests(out)).isEqualTo(requests.size());
        assertThat(kept.get("leftOut").asLong()).isZero();
        assertThat(SampleServer.calls(requests)).hasSizeGreaterThanOrEqualTo(50)
                .allSatisfy(q -> assertThat(q.get("hops").asInt()).isGreaterThanOrEqualTo(2));
        // The sample's server answered each call, an inbound request named by its path alone.
        assertThat(SampleServer.servedIn(requests)).hasSizeGreaterThanOrEqualTo(50)
                .allSatisfy(q -> assertThat(q.get("name").asText()).isEqualTo("GET /"));
        // Its worst steady requests, the warm-up ones (its first calls load classes) apart, as report's text.
        assertThat(Files.readString(out.resolve("report.txt"))).contains("GET 127.0.0.1/")
                .containsPattern("worst [1-5] steady request\\(s\\) by duration \\(warm-up requests apart, below");
        assertThat(Files.readString(out.resolve("report.html"))).startsWith("<!DOCTYPE html>");
    }

    @Test
    void exitsWithTheCommandsExitCode() throws Exception {
        Path out = dir.resolve("failing");
        Cli r = Cli.run("record", "-o", out.toString(), "--", java, "-cp", samples.toString(), "no.such.Main");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1); // the java launcher's code for a missing main class
        // The agent ran and its recording was written at exit, so the reports are there, with no requests.
        assertThat(out.resolve("report.json")).isNotEmptyFile();
        assertThat(requests(out)).isEmpty();
    }

    @Test
    void bpfTracesTheCommandOrSaysWhyNot() throws Exception {
        Path out = dir.resolve("bpf");
        Cli r = Cli.run(recordShortJvm(List.of("-o", out.toString(), "--bpf",
                "--agent-options", "requests=io.hopscope.samples.knownpath.KnownPath#request"), "-jar", samples.toString(),
                "known-path", "--count", "40", "--pause-ms", "100"));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(requests(out)).hasSize(40);
        if (bccWorks()) {
            assertThat(out.resolve("offcpu.jsonl")).isNotEmptyFile();
            JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
            assertThat(report.has("kernel")).as("merged with offwake's events").isTrue();
            assertThat(r.err()).contains("offcpu.jsonl)");
        } else {
            assertThat(r.err()).containsOnlyOnce("record: --bpf off: ");
            assertThat(out.resolve("offcpu.jsonl")).doesNotExist();
        }
    }

    /** {@code record <options> -- java <short JVM flags> <args>}: the command line of a recorded short JVM. */
    private static String[] recordShortJvm(List<String> options, String... args) {
        List<String> command = new ArrayList<>(List.of("record"));
        command.addAll(options);
        command.add("--");
        command.addAll(Paths.shortJvm(Path.of(java)));
        command.addAll(List.of(args));
        return command.toArray(String[]::new);
    }

    /** BpfMergeIT's test: root, and bcc loads a tracepoint program. */
    static boolean bccWorks() throws Exception {
        if (!"root".equals(System.getProperty("user.name")) || !Files.isExecutable(Path.of(BpfMergeIT.PYTHON))) {
            return false;
        }
        Process p = new ProcessBuilder(BpfMergeIT.PYTHON, "-c", "from bcc import BPF; "
                + "BPF(text='TRACEPOINT_PROBE(sched, sched_switch) { return 0; }')").redirectErrorStream(true).start();
        boolean done = p.waitFor(60, TimeUnit.SECONDS);
        p.getInputStream().readAllBytes();
        return done && p.exitValue() == 0;
    }

    // Every request the report holds: the steady ones and, kept apart, the warm-up ones (its first
    // requests load classes, so some are always warm-up).
    static List<JsonNode> requests(Path out) throws Exception {
        List<JsonNode> requests = new ArrayList<>();
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        report.get("requests").forEach(requests::add);
        report.get("warmupRequests").forEach(requests::add);
        return requests;
    }

    static int warmupRequests(Path out) throws Exception {
        return new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("warmupRequests").size();
    }
}
