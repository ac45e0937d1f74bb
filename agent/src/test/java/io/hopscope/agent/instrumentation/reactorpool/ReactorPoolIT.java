package io.hopscope.agent.instrumentation.reactorpool;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.io.File;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * reactor-pool's pending acquire, served by the thread that releases the resource and drains the
 * pool without any executor (testapps.ReactorPoolApp, on the stand-alone reactor-pool): the
 * delivery runs in the request that asked, on the releasing thread, as a handoff, and the caller's
 * Mono#block is woken from there. On the oldest release supported (0.1) and the newest tested, each
 * with the reactor-core it asks for.
 */
class ReactorPoolIT {

    private static final int COUNT = 3;
    private static final String BOUNDARY = "io.hopscope.testapps.ReactorPoolApp#borrow";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("reactor-pool", new ReactorPoolInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} reactor-pool {1}")
    @MethodSource("ends")
    void aPendingAcquireIsDeliveredInItsRequestOnTheReleasingThread(String java, String version, String libraries)
            throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY,
                List.of("-cp", classPath, "io.hopscope.testapps.ReactorPoolApp", Integer.toString(COUNT)));
        assertThat(run.stdout).as(run.stderr).contains("responses ok: " + COUNT);
        Collection<Requests.Request> requests = run.cleanRequests(COUNT).values();
        assertThat(requests).hasSize(COUNT);
        for (Requests.Request r : requests) {
            r.assertOk(BOUNDARY);
            assertThat(Requests.startThreadName(r.request)).isEqualTo("pool-caller");
            // The borrower, made on the caller, is delivered on main, which released the resource.
            assertThat(r.hops("handoff")).as("handoffs of request %d", r.id).singleElement().satisfies(h -> {
                assertThat(Requests.threadName(h, "fromThread")).isEqualTo("pool-caller");
                assertThat(Requests.threadName(h, "toThread")).isEqualTo("main");
                assertThat(h.getString("via")).isEqualTo("reactor.pool.AbstractPool$Borrower");
            });
            assertThat(r.segments).as("segments of request %d", r.id)
                    .anyMatch(s -> s.getThread().getJavaName().equals("main"));
            // The caller was parked in Mono#block before main released: a wait, woken by main.
            List<RecordedEvent> blocks = r.waits.stream().filter(w -> w.getString("kind").equals("Mono.block")).toList();
            assertThat(blocks).as("Mono.block waits of request %d", r.id).hasSizeGreaterThanOrEqualTo(1);
            RecordedEvent first = blocks.stream().min(Comparator.comparing(RecordedEvent::getStartTime)).orElseThrow();
            assertThat(first.getThread().getJavaName()).isEqualTo("pool-caller");
            assertThat(Requests.threadName(first, "wakerThread")).isEqualTo("main");
            assertThat(first.getString("outcome")).isEqualTo("value");
            assertThat(r.hops("wake")).as("wakes of request %d", r.id).singleElement().satisfies(h -> {
                assertThat(Requests.threadName(h, "fromThread")).isEqualTo("main");
                assertThat(Requests.threadName(h, "toThread")).isEqualTo("pool-caller");
            });
        }
    }
}
