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
 * Which thread a request started on. The agent leaves a Request's {@code startThread} null when the
 * request ends on the thread it started on (a Thread field costs it a native call), and JFR writes
 * null for a thread that has already terminated: the report then takes the thread of the request's
 * earliest segment, which begins with the request, and keeps a startThread that is given.
 */
class StartThreadTest {

    @TempDir
    Path dir;

    @Test
    void theStartThreadIsTheGivenOneOrTheEarliestSegmentsThread() throws Exception {
        Path jfr = dir.resolve("start.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(ContractEvents.Request.class);
            recording.enable(ContractEvents.Segment.class);
            recording.start();

            // 1: ends where it started, startThread null.
            run("ends-where-it-started", () -> request(1, null));

            // 2: started on a thread that handed it over and is still alive at the end.
            CountDownLatch done = new CountDownLatch(1);
            Thread starter = new Thread(() -> {
                segment(2);
                await(done);
            }, "started-it");
            starter.start();
            run("ended-it", () -> request(2, starter));
            done.countDown();
            starter.join();

            // 3: started on a thread that had exited by the end: JFR writes its startThread as null.
            Thread exited = run("started-and-exited", () -> segment(3));
            run("ended-it-too", () -> request(3, exited));

            recording.stop();
            recording.dump(jfr);
        }
        Map<Long, Request> requests = new RecordingAnalyzer(jfr, AnalysisOptions.all()).analyze().requests().stream()
                .collect(Collectors.toMap(Request::id, Function.identity()));

        assertThat(requests.get(1L).startThread().name()).isEqualTo("ends-where-it-started");
        assertThat(requests.get(2L).startThread().name()).isEqualTo("started-it");
        assertThat(requests.get(3L).startThread().name()).isEqualTo("started-and-exited");
    }

    private static Thread run(String name, Runnable body) throws InterruptedException {
        Thread t = new Thread(body, name);
        t.start();
        t.join();
        return t;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A Request event on this thread, with a segment of its own after the start. */
    private static void request(long id, Thread startThread) {
        ContractEvents.Request r = new ContractEvents.Request();
        r.begin();
        segment(id);
        r.requestId = id;
        r.name = "GET /start";
        r.outcome = "ok";
        r.statusCode = 200;
        r.startThread = startThread;
        r.commit();
    }

    private static void segment(long id) {
        ContractEvents.instantSegment(id, "start", 64);
    }
}
