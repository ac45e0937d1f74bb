package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/** The agent loaded into a running JVM (agentmain), retransforming the classes already loaded. */
class AttachIT {

    @Test
    void anAttachedAgentFollowsTheKnownPath() throws Exception {
        Path recording = Files.createTempFile(AgentRun.workDir(), "attach-", ".jfr");
        Files.delete(recording);
        Process target = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.AttachTargetApp", "3", "1048576")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
            try {
                vm.loadAgent(AgentRun.agentJar().toString(),
                        "jfr=" + recording + ",requests=io.hopscope.testapps.KnownPathApp#request");
            } finally {
                vm.detach();
            }
            try (OutputStream in = target.getOutputStream()) {
                in.write('\n');
            }
            assertThat(target.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(target.exitValue()).isZero();
        } finally {
            target.destroyForcibly();
        }
        Map<Long, Requests.Request> requests = Requests.byId(RecordingFile.readAllEvents(recording));
        assertThat(requests).hasSize(3);
        for (Requests.Request r : requests.values()) {
            assertThat(r.hops).hasSize(3);
            assertThat(r.threads()).hasSize(3);
            assertThat(r.allocatedBytesOn("known-path-B")).isGreaterThanOrEqualTo(1048576);
        }
        assertThat(List.of(requests.values().iterator().next().request.getString("name")))
                .containsExactly("io.hopscope.testapps.KnownPathApp#request");
    }
}
