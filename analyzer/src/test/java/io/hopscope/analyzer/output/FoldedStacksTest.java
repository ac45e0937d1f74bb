package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import io.hopscope.analyzer.testing.RequestBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hops picture: platform threads under their pool, virtual threads grouped by name prefix. */
class FoldedStacksTest {

    static final ThreadRef MAIN = new ThreadRef(1, 100, "main", false);
    static final ThreadRef WORKER_1 = new ThreadRef(30, 0, "vworker-1", true);
    static final ThreadRef WORKER_2 = new ThreadRef(31, 0, "vworker-2", true);
    static final ThreadRef UNNAMED = new ThreadRef(32, 0, "", true);

    @Test
    void virtualThreadsAreOneFrameEachNamePrefixAndPlatformThreadsAFrameUnderTheirPool() {
        FoldedStacks folded = new FoldedStacks();
        folded.addHops(request(1, WORKER_1, 7_000));
        folded.addHops(request(2, WORKER_2, 5_000));
        folded.addHops(request(3, UNNAMED, 2_000));
        String text = folded.toString();
        assertThat(text).contains("GET 127.0.0.1/x;virtual vworker 12000\n")
                .contains("GET 127.0.0.1/x;virtual (unnamed) 2000\n")
                // main: 100 + 50 ns per request, and its waits as a frame above it.
                .contains("GET 127.0.0.1/x;pool main;main 450\n")
                .contains("GET 127.0.0.1/x;pool main;main;wait Future.get 14600\n")
                .contains("GET 127.0.0.1/x;wake latency to pool main 150\n")
                .contains("GET 127.0.0.1/x;queue delay to virtual vworker 150\n")
                .doesNotContain("vworker-1").doesNotContain("vworker-2");
    }

    private static Request request(long id, ThreadRef worker, long workNanos) {
        long t0 = 1_000_000;
        return new RequestBuilder(id, "GET 127.0.0.1/x").outcome("ok", null).started(MAIN, t0, workNanos + 400)
                .hops(new Hops(2, 1, 75, 1, 50, 0, 0,
                        List.of(new Hop("handoff", MAIN, worker, t0 + 100, id == 3 ? 0 : 75, "java.lang.VirtualThread", 0),
                                new Hop("wake", worker, MAIN, t0 + workNanos + 300, 50, "java.util.concurrent.FutureTask", 0))))
                .threads(List.of(new ThreadTime(MAIN, 2, 200, 0), new ThreadTime(worker, 1, workNanos, -1)))
                .segments(List.of(new Segment(MAIN, "start", t0, t0 + 100, 0, -1),
                        new Segment(worker, "task", t0 + 200, t0 + 200 + workNanos, -1, -1),
                        new Segment(MAIN, "resume", t0 + workNanos + 300, t0 + workNanos + 350, 0, -1)))
                .waits(new Waits(workNanos + 200, false,
                        List.of(new Wait("Future.get", MAIN, worker, t0 + 100, t0 + workNanos + 300, 50, false, "value"))))
                .build();
    }
}
