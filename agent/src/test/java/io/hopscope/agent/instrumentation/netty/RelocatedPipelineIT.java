package io.hopscope.agent.instrumentation.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.PipelineChecks;
import io.hopscope.agent.testing.RelocatedSamples;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import io.hopscope.agent.testing.TwoAtATime;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The azure-core Netty pipeline on a copy of Netty and Reactor relocated the way an SDK shades
 * them (the samples build's second jar: io.netty and reactor moved under com.example.shaded, with
 * Reactor Netty, the reactor-pool it carries shaded, and azure-core rewritten to use them): the
 * same hops as on the original, on this JDK and the second one. The request ends at the relocated
 * Mono's terminal signal, through the Reactor helper defined (rewritten) for that copy. The runs
 * are queued when the class starts and run two at a time.
 */
class RelocatedPipelineIT {

    private static final int COUNT = 30;
    private static final String NETTY = RelocatedSamples.NETTY;
    /** The class's JVM runs, queued when it starts: none measures time, so two run at a time. */
    private static final TwoAtATime<String, AgentRun> RUNS = new TwoAtATime<>();

    static Path relocatedJar() {
        return RelocatedSamples.jar();
    }

    @BeforeAll
    static void relocatedSamplesAreBuilt() throws Exception {
        RelocatedSamples.need();
        // What the test is about: no original Netty or Reactor Netty left beside the copy.
        try (JarFile jar = new JarFile(relocatedJar().toFile())) {
            assertThat(jar.getEntry("com/example/shaded/io/netty/util/concurrent/SingleThreadEventExecutor.class"))
                    .isNotNull();
            assertThat(jar.stream().map(e -> e.getName()))
                    .noneMatch(n -> n.startsWith("io/netty/") || n.startsWith("reactor/"));
        }
        for (String java : jvms()) {
            RUNS.start("relocated on " + java, () -> AgentRun.run(java, "jfr=%JFR%,spanthreshold=0", List.of("-jar",
                    relocatedJar().toString(), "pipeline", "--mode", "sync-over-async", "--http-client", "netty",
                    "--parallel", "2", "--count", Integer.toString(COUNT))));
        }
        if (SamplesJar.has("io/hopscope/samples/pipeline/PipelineCommand.class")) {
            RUNS.start("original", () -> AgentRun.run("jfr=%JFR%", List.of("-jar", SamplesJar.path().toString(),
                    "pipeline", "--mode", "sync-over-async", "--http-client", "netty", "--parallel", "2", "--count", "4")));
        }
    }

    static List<String> jvms() {
        return Handovers.jvms().toList();
    }

    @ParameterizedTest
    @MethodSource("jvms")
    void nettySyncOverAsyncRequestsHopToTheRelocatedEventLoopAndBack(String java) throws Exception {
        AgentRun run = RUNS.get("relocated on " + java);
        // The calls; the sample's server (Jetty, in the same JVM) answers each as an inbound request of its own.
        Map<Long, Requests.Request> requests = Requests.outbound(run.cleanRequests(COUNT));
        // Reactor Netty names its loops "reactor-http-": a string the shade plugin relocated too.
        PipelineChecks.nettySyncOverAsync(requests.values(), NETTY, "com.example.shaded.reactor-http-");

        List<RecordedEvent> infos = run.events().stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.AgentInfo")).toList();
        // The last one, at the recording's end: by then every copy has had its classes loaded.
        String[] instrumentations = latest(infos).getString("instrumentations").split(";");
        assertThat(instrumentations).as("on %s", java)
                .contains("netty@" + NETTY, "reactor@com.example.shaded.reactor.core",
                        "reactor-pool@com.example.shaded.reactor.netty.internal.shaded.reactor.pool", "azure-core")
                // Nothing of the originals': the jar has none.
                .doesNotContain("netty", "reactor", "reactor-pool");
    }

    @Test
    void theOriginalPipelineNamesNoCopy() throws Exception {
        SamplesJar.need("io/hopscope/samples/pipeline/PipelineCommand.class");
        AgentRun run = RUNS.get("original");
        run.cleanRequests(4);
        List<RecordedEvent> infos = run.events().stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.AgentInfo")).toList();
        String[] instrumentations = latest(infos).getString("instrumentations").split(";");
        // reactor-netty's own copy of reactor-pool keeps the plain name.
        assertThat(instrumentations).contains("netty", "reactor-pool", "reactor", "azure-core")
                .noneMatch(name -> name.contains("@"));
    }

    // The chunk end's AgentInfo names the copies found during the chunk; a recording gives events in
    // the order their buffers were written, not in time order, so it is the latest by time.
    private static RecordedEvent latest(List<RecordedEvent> infos) {
        return infos.stream().max(Comparator.comparing(RecordedEvent::getStartTime)).orElseThrow();
    }
}
