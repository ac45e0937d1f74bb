package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent leaves a Request's {@code startThread} null when the request ends on the thread it
 * started on (a Thread field costs the agent a native call): the report must then name the event's
 * own thread, and keep a startThread that is given.
 */
class StartThreadTest {

    @TempDir
    Path dir;

    @Test
    void aNullStartThreadIsTheThreadTheRequestEndedOn() throws Exception {
        Path jfr = dir.resolve("start.jfr");
        Thread[] starter = new Thread[1];
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.start();
            Thread same = new Thread(() -> request(1, null), "ends-where-it-started");
            same.start();
            same.join();
            // A request that started on a thread which then handed it over and waits.
            CountDownLatch done = new CountDownLatch(1);
            starter[0] = new Thread(() -> {
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "started-it");
            starter[0].start();
            Thread other = new Thread(() -> request(2, starter[0]), "ended-it");
            other.start();
            other.join();
            done.countDown();
            starter[0].join();
            recording.stop();
            recording.dump(jfr);
        }
        Map<Long, Request> requests = new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze().requests().stream()
                .collect(Collectors.toMap(Request::id, Function.identity()));

        assertThat(requests.get(1L).startThread().name()).isEqualTo("ends-where-it-started");
        assertThat(requests.get(2L).startThread().name()).isEqualTo("started-it");
    }

    private static void request(long id, Thread startThread) {
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        ContractEvents.Segment s = new ContractEvents.Segment();
        s.begin();
        s.requestId = id;
        s.kind = "start";
        s.allocatedBytes = 64;
        s.cpuNanos = -1;
        s.commit();
        r.requestId = id;
        r.name = "GET /start";
        r.outcome = "ok";
        r.statusCode = 200;
        r.startThread = startThread;
        r.commit();
    }
}
