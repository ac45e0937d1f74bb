package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad options: one stderr line each, naming the option, and the application still runs. */
class AgentOptionsIT {

    private static List<String> app() {
        return List.of("-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.KnownPathApp", "1",
                "1024");
    }

    @Test
    void badOptionsPrintOneLineEachAndTheApplicationRuns() throws Exception {
        AgentRun run = AgentRun.run("colour=blue,requests=NoMethodHere,nonsense,jfr=", app());
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("request 0 done 0");
        assertThat(run.agentLines()).hasSize(4);
        assertThat(run.agentLines().get(0)).contains("option 'colour' is unknown");
        assertThat(run.agentLines().get(1)).contains("'NoMethodHere' is not CLASS#METHOD");
        assertThat(run.agentLines().get(2)).contains("'nonsense' is not key=value");
        assertThat(run.agentLines().get(3)).contains("jfr= needs a file path");
        assertThat(run.stderr).doesNotContain("Exception");
    }

    @Test
    void anUnwritableRecordingPathDoesNotStopTheApplication() throws Exception {
        AgentRun run = AgentRun.run("jfr=/nonexistent-dir/x/y.jfr", app());
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("request 0 done 0");
        assertThat(run.agentLines()).singleElement().asString()
                .startsWith("hopscope: cannot record to jfr=/nonexistent-dir/x/y.jfr");
    }

    @Test
    void lockStacksRecordsTheStackOfAContendedMonitorEnter() throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%,lockstacks=true,requests=io.hopscope.testapps.KnownPathApp#request",
                List.of("-cp", System.getProperty("hopscope.test.classes"), "io.hopscope.testapps.KnownPathApp", "2",
                        "1024"));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.agentLines()).isEmpty();
        assertThat(run.events()).filteredOn(e -> e.getEventType().getName().equals("jdk.JavaMonitorEnter")
                && e.getThread().getJavaName().equals("known-path-B") && e.getDuration().toMillis() >= 10)
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getStackTrace().getFrames())
                        .anyMatch(f -> f.getMethod().getType().getName().equals("io.hopscope.testapps.KnownPathApp")));
    }
}
