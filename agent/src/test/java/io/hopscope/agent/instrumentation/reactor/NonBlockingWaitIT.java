package io.hopscope.agent.instrumentation.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.io.File;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A wait on a Reactor NonBlocking thread is recorded outside any request, with its stack trace. On
 * the oldest release supported (3.1.6, the first with NonBlocking) and the newest tested.
 */
class NonBlockingWaitIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("reactor", new ReactorInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} Reactor {1}")
    @MethodSource("ends")
    void aBlockingWaitOnANonBlockingThreadIsFlaggedWithItsStack(String java, String version, String libraries)
            throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        AgentRun run = AgentRun.run(java, "jfr=%JFR%", List.of("-cp", classPath, "io.hopscope.testapps.NonBlockingWaitApp"));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("result: slow-worker");
        List<RecordedEvent> events = run.events();
        List<RecordedEvent> waits = events.stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.Wait") && e.getBoolean("nonBlockingThread"))
                .toList();
        assertThat(waits).singleElement().satisfies(w -> {
            assertThat(w.getString("kind")).isEqualTo("CompletableFuture.get");
            assertThat(w.getLong("requestId")).isZero();
            assertThat(w.getThread().getJavaName()).startsWith("parallel-");
            assertThat(Requests.threadName(w, "wakerThread")).isEqualTo("slow-worker");
            assertThat(w.getString("outcome")).isEqualTo("value");
            // The worker sleeps 200 ms; the margin is for a loaded machine, where the waiter may
            // reach get() late (the first wait of a run also loads the agent's event classes).
            assertThat(w.getDuration().toMillis()).isGreaterThanOrEqualTo(100);
        });
        RecordedEvent flagged = events.stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.NonBlockingWait")).findFirst().orElseThrow();
        assertThat(flagged.getString("kind")).isEqualTo("CompletableFuture.get");
        assertThat(flagged.getStackTrace().getFrames())
                .anyMatch(f -> f.getMethod().getName().equals("blockOnNonBlockingThread"));
        // Outside a request, the main thread's own Mono.block is no event: it is not non-blocking.
        assertThat(events).noneMatch(e -> e.getEventType().getName().equals("hopscope.Wait")
                && !e.getBoolean("nonBlockingThread"));
    }
}
