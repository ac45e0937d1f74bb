package io.hopscope.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.bench.CpuAttribution.Charge;
import io.hopscope.bench.CpuAttribution.Owner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who a CPU sample is charged to: the leafmost frame that is not the JDK, the JVM or a library. */
class CpuAttributionTest {

    @Test
    void misuseIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path notJfr = Files.writeString(dir.resolve("x.jfr"), "not a recording");
        assertThat(run()).isEqualTo(new Result(2,
                "usage: CpuAttribution RECORDING.jfr FROM_SECOND TO_SECOND [CPU_US_PER_REQUEST]"));
        assertThat(run(dir.resolve("missing.jfr").toString(), "42", "55"))
                .isEqualTo(new Result(2, "attribution: cannot read " + dir.resolve("missing.jfr")));
        assertThat(run(notJfr.toString(), "forty", "55").line())
                .startsWith("attribution: FROM_SECOND and TO_SECOND must be whole seconds");
        Result bad = run(notJfr.toString(), "42", "55");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.line()).startsWith("attribution: " + notJfr + " is not a readable JFR recording");
    }

    record Result(int exit, String line) {
    }

    /** Runs CpuAttribution in its own JVM (it exits); its stderr must be one line. */
    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CpuAttribution.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = p.waitFor();
        assertThat(err.lines()).hasSize(1);
        return new Result(exit, err);
    }

    @Test
    void jdkCodeCalledByTheAgentIsTheAgents() {
        Charge c = CpuAttribution.charge(
                List.of("vdso", "jdk.jfr.internal.handlers.EventHandler", "io.hopscope.agent.events.SpanEvent",
                        "io.hopscope.agent.runtime.HopscopeRuntime", "com.azure.core.http.policy.RetryPolicy"),
                List.of("__vdso_clock_gettime", "timestamp", "end", "closeSyncSpan", "processSync"));
        assertThat(c.owner()).isEqualTo(Owner.AGENT);
        assertThat(c.agentMethod()).isEqualTo("events.SpanEvent.end");
    }

    @Test
    void nestedClassesAreChargedToTheirOuterClass() {
        Charge c = CpuAttribution.charge(
                List.of("java.lang.ThreadLocal", "io.hopscope.agent.instrumentation.reactor.ReactorAdapter$Terminal"),
                List.of("get", "onNext"));
        assertThat(c.agentMethod()).isEqualTo("instrumentation.reactor.ReactorAdapter.onNext");
    }

    @Test
    void jdkCodeCalledByTheApplicationIsTheApplications() {
        Charge c = CpuAttribution.charge(
                List.of("libc.so.6", "sun.nio.ch.SocketDispatcher", "okio.Buffer", "io.hopscope.agent.bootstrap.Bridge"),
                List.of("write", "write0", "writeUtf8", "spanEnter"));
        assertThat(c.owner()).isEqualTo(Owner.APPLICATION);
        assertThat(c.agentMethod()).isNull();
    }

    @Test
    void samplesWithOnlyPlatformFramesAreTheRuntimes() {
        assertThat(CpuAttribution.charge(List.of("libjvm.so", "libjvm.so"), List.of("G1ParScan", "run")).owner())
                .isEqualTo(Owner.RUNTIME);
        assertThat(CpuAttribution.charge(List.of(), List.of()).owner()).isEqualTo(Owner.RUNTIME);
    }

    @Test
    void theSamplesOwnPackageIsTheApplicationNotTheAgent() {
        // io.hopscope.samples shares the agent's prefix up to "io.hopscope.": only io.hopscope.agent. counts.
        Charge c = CpuAttribution.charge(List.of("io.hopscope.samples.server.SampleServer"), List.of("handle"));
        assertThat(c.owner()).isEqualTo(Owner.APPLICATION);
    }
}
