package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.settings.AttachProperties;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM on which the agent cannot start still runs the application, unchanged, with one hopscope
 * line on stderr saying why: each failure before the agent is installed that can be caused on this
 * machine, at start-up (-javaagent) and on attach. (A JDK older than 11, which this machine does not
 * have, is HopscopeAgentTest's.)
 */
class AgentStartIT {

    /** What --limit-modules leaves: the agent can be loaded (java.instrument) but JFR is not there. */
    private static final String WITHOUT_JFR = "java.base,java.instrument,java.management";
    private static final String NO_MODULES = "hopscope: needs the JDK modules jdk.jfr, jdk.management, which this JVM"
            + " lacks (--limit-modules, or a jlink image without them); the application runs without it";

    private static List<String> knownPath(String... jvmFlags) {
        List<String> args = new ArrayList<>(List.of(jvmFlags));
        args.addAll(List.of("-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.KnownPathApp",
                "1", "1024"));
        return args;
    }

    /** The run's stderr is that one line and nothing else, the application's output is whole, and no recording was made. */
    private static void ranWithoutTheAgent(AgentRun run, String line) {
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("request 0 done 0");
        assertThat(run.stderr.strip().split("\n")).as("stderr").containsExactly(line);
        assertThat(run.recording).doesNotExist();
    }

    @Test
    void aJvmWithoutJfrRunsTheApplicationWithOneLine() throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%", knownPath("--limit-modules", WITHOUT_JFR));
        ranWithoutTheAgent(run, NO_MODULES);
    }

    @Test
    void aJvmWithJfrButNotTheJdksThreadCountersRunsTheApplicationWithOneLine() throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%", knownPath("--limit-modules", WITHOUT_JFR + ",jdk.jfr"));
        ranWithoutTheAgent(run, NO_MODULES.replace("modules jdk.jfr, jdk.management", "module jdk.management")
                .replace("without them", "without it"));
    }

    @Test
    void aFailureOfTheInstallerRunsTheApplicationWithOneLine() throws Exception {
        // The bridge's jar goes to java.io.tmpdir: where there is none, the install fails before any
        // class is transformed.
        AgentRun run = AgentRun.run("jfr=%JFR%", knownPath("-Djava.io.tmpdir=/nonexistent-hopscope-tmp"));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("request 0 done 0");
        assertThat(run.stderr.strip().split("\n")).as("stderr").singleElement().asString()
                .startsWith("hopscope: agent not started (java.nio.file.NoSuchFileException: /nonexistent-hopscope-tmp/")
                .endsWith("); the application runs without it");
        assertThat(run.recording).doesNotExist();
    }

    @Test
    void attachingToAJvmWithoutJfrLeavesItRunningWithOneLine() throws Exception {
        Path err = Files.createTempFile(AgentRun.workDir(), "attach-err-", ".txt");
        Process target = new ProcessBuilder(AgentRun.javaHere(), "--limit-modules", WITHOUT_JFR, "-cp",
                System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.AttachTargetApp", "1", "1024")
                .redirectError(err.toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
            try {
                vm.loadAgent(AgentRun.agentJar().toString(), "jfr=" + AgentRun.workDir().resolve("never.jfr"));
                assertThat(vm.getSystemProperties().getProperty(AttachProperties.STARTED)).isNull();
            } finally {
                vm.detach();
            }
            try (OutputStream in = target.getOutputStream()) {
                in.write('\n');
            }
            assertThat(out.readLine()).startsWith("request 0 done 0");
            assertThat(target.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(target.exitValue()).isZero();
        } finally {
            target.destroyForcibly();
        }
        assertThat(Files.readString(err).strip().split("\n")).as("stderr").containsExactly(NO_MODULES);
    }
}
