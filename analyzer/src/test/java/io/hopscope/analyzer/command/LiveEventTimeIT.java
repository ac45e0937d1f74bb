package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.hopscope.analyzer.command.LiveCommandIT.Lines;
import io.hopscope.analyzer.command.LiveCommandIT.Live;
import io.hopscope.analyzer.testing.LiveJsonKeys;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Issue 30's "done when" for live: on a steady load (the open-loop sample issuing 50 requests a
 * second on a 10 ms tick, whatever the answers do), every second that {@code live} prints after the
 * first two has requests started in it: each second is counted by its events' timestamps, not by when
 * the stream delivered them. The first two may be partial (live attaches mid-second, the agent
 * instruments as it loads).
 */
@Isolated("it checks a request rate")
class LiveEventTimeIT {

    static final int SECONDS = 8;

    @TempDir
    Path dir;

    @Test
    void everySecondOfASteadyLoadReadsRequestsStartedAndEachSecondPrintsOnceInOrder() throws Exception {
        Path samples = Paths.samplesJar();
        Path agent = Paths.agentJar();
        Path cli = Paths.cliJar();
        Paths.needJars(samples, agent, cli);
        // Far longer than live needs (loading the agent takes seconds, a minute on a loaded machine): the load
        // runs through every second asserted on, and is ended here.
        Process target = new ProcessBuilder(LiveCommandIT.java(), "-jar", samples.toString(), "open-loop",
                "--mode", "async", "--rps", "50", "--delay-ms", "10", "--duration", "300")
                .redirectErrorStream(true).start();
        Lines targetOut = new Lines(target);
        try {
            targetOut.await(l -> l.startsWith("# open-loop"), 1, 60);
            Live live = new Live(cli, dir.resolve("live.err"), Long.toString(target.pid()), LiveCommandIT.OPTIONS, "--json");
            List<String> lines = live.out.await(l -> true, SECONDS, 240);
            live.interrupt();
            live.awaitExit(30, "live ends on Ctrl-C");
            assertThat(target.isAlive()).as("the load ran all along: %s", targetOut.all()).isTrue();

            List<JsonNode> seconds = new ArrayList<>();
            for (String line : lines) {
                seconds.add(LiveJsonKeys.parse(line));
            }
            for (int i = 0; i < seconds.size(); i++) {
                JsonNode second = seconds.get(i);
                assertThat(second.get("epochMillis").asLong() % 1000).as("aligned on whole seconds").isZero();
                if (i > 0) {
                    assertThat(second.get("epochMillis").asLong()).as("each second once, in order: %s", lines)
                            .isEqualTo(seconds.get(i - 1).get("epochMillis").asLong() + 1000);
                }
                if (i >= 2) {
                    assertThat(started(second)).as("second %d of %s", i, lines).isPositive();
                }
            }
            System.out.println("live on 50 rps, started per second: " + seconds.stream().map(LiveEventTimeIT::started).toList());
        } finally {
            target.destroyForcibly();
            target.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static long started(JsonNode second) {
        long started = 0;
        for (JsonNode n : second.get("names")) {
            if (n.get("name").asText().equals(LiveCommandIT.REQUEST)) {
                started += n.get("started").asLong();
            }
        }
        return started;
    }
}
