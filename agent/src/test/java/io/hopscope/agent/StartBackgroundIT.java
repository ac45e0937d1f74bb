package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.BackgroundStartApp;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * start=background: premain returns at once and the agent installs on a thread of its own while
 * main runs its requests (io.hopscope.testapps.BackgroundStartApp: the known path, caller → A → B
 * → the caller's future, through pools made before the install). Whatever the timing, no request
 * is recorded half seen: each recorded one has its 3 hops on 3 threads and its allocation on B, and
 * every request after the agent says it is installed is recorded.
 */
class StartBackgroundIT {

    private static final int AFTER = 5;
    private static final Pattern BEFORE = Pattern.compile("requests before the install: (\\d+)");

    @Test
    void aBackgroundStartRecordsEveryRequestAfterTheInstallWholly() throws Exception {
        AgentRun run = run("start=background");
        int before = before(run);
        Map<Long, Requests.Request> requests = Requests.byId(run.events());
        // Those after the install, and any before it that began once the bridge called the runtime.
        assertThat(requests.size()).as("requests recorded of %s before the install and %s after", before, AFTER)
                .isBetween(AFTER, before + AFTER);
        for (Requests.Request r : requests.values()) {
            assertThat(r.hops).as("hops of request %s", r.request).hasSize(3);
            assertThat(r.threads()).hasSize(3);
            assertThat(r.allocatedBytesOn("known-path-B")).isGreaterThanOrEqualTo(BackgroundStartApp.ALLOC_BYTES);
        }
    }

    @Test
    void aPremainStartIsInstalledBeforeMain() throws Exception {
        AgentRun run = run("start=premain");
        assertThat(before(run)).as("requests main made before the agent said it was installed").isZero();
        Map<Long, Requests.Request> requests = Requests.byId(run.events());
        assertThat(requests).hasSize(AFTER);
        for (Requests.Request r : requests.values()) {
            assertThat(r.hops).hasSize(3);
        }
    }

    private static AgentRun run(String start) throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%,requests=" + KnownPathIT.NAME + "," + start,
                List.of("-cp", System.getProperty("hopscope.test.classes"), BackgroundStartApp.class.getName(),
                        Integer.toString(AFTER)));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.agentLines()).as("the agent's stderr lines").isEmpty();
        return run;
    }

    private static int before(AgentRun run) {
        Matcher m = BEFORE.matcher(run.stdout);
        assertThat(m.find()).as("stdout %s", run.stdout).isTrue();
        return Integer.parseInt(m.group(1));
    }
}
