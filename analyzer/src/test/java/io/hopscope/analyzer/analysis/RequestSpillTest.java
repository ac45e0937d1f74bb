package io.hopscope.analyzer.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.memory.RequestSpill;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.GcTime;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import io.hopscope.analyzer.testing.RequestBuilder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The temporary file behind {@code --top} all: records come back equal, in key then id order, across runs. */
class RequestSpillTest {

    private static final ThreadRef CALLER = new ThreadRef(1, 101, "caller");
    private static final ThreadRef LOOP = new ThreadRef(2, 102, "reactor-http-nio-1 \u00e9");

    @Test
    void givesEveryRecordBackEqualInKeyThenIdOrderAcrossSeveralRuns() {
        Random random = new Random(42);
        List<long[]> keys = new ArrayList<>();
        List<Request> written = new ArrayList<>();
        for (int id = 1; id <= 50; id++) {
            keys.add(new long[] {random.nextInt(7) - 3, id});
            written.add(request(id, id % 2 == 0));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        RequestSpill spill = new RequestSpill(8); // 7 runs to merge
        order.forEach(i -> spill.add(keys.get(i)[0], written.get(i)));
        List<Request> read = spill.finish();

        order.sort(Comparator.<Integer>comparingLong(i -> keys.get(i)[0]).thenComparingLong(i -> keys.get(i)[1]));
        assertThat(read).hasSize(50);
        assertThat(read).containsExactlyElementsOf(order.stream().map(written::get).toList());
        assertThat(read.get(order.indexOf(3))).isEqualTo(written.get(3)); // random access after a full read
    }

    @Test
    void spillKeysOrderRequestsLikeTheReportOrderForEverySortField() {
        Random random = new Random(7);
        List<RequestInProgress> accs = new ArrayList<>();
        for (int id = 1; id <= 200; id++) {
            RequestInProgress r = new RequestInProgress(id, false);
            r.durationNanos = random.nextInt(5) * 1_000_000L;
            r.hopCount = random.nextInt(4);
            r.allocatedBytes = random.nextInt(3) * 1024L;
            r.blockedNanos = random.nextInt(3);
            r.lockNanos = random.nextInt(3) * 30_000_000L;
            r.gcNanos = random.nextInt(2);
            r.startEpochNanos = 1_700_000_000_000_000_000L + random.nextInt(50);
            accs.add(r);
        }
        for (SortField sort : SortField.values()) {
            List<RequestInProgress> expected = new ArrayList<>(accs);
            expected.sort(Comparator.<RequestInProgress>comparingLong(r -> sort == SortField.start ? r.startEpochNanos
                    : -figure(sort, r)).thenComparingLong(r -> r.id));
            List<RequestInProgress> byKey = new ArrayList<>(accs);
            byKey.sort(Comparator.<RequestInProgress>comparingLong(sort::key).thenComparingLong(r -> r.id));
            assertThat(byKey).as(sort.name()).containsExactlyElementsOf(expected);
            List<RequestInProgress> byOrder = new ArrayList<>(accs);
            byOrder.sort(sort.order());
            assertThat(byOrder).as(sort.name()).containsExactlyElementsOf(expected);
        }
    }

    // Largest first: the figure each sort field names, written out here independently of SortField.
    private static long figure(SortField sort, RequestInProgress r) {
        return switch (sort) {
            case duration -> r.durationNanos;
            case hops -> r.hopCount;
            case allocated -> r.allocatedBytes;
            case blocked -> r.blockedNanos;
            case lock -> r.lockNanos;
            case gc -> r.gcNanos;
            case start -> throw new AssertionError();
        };
    }

    private static Request request(long id, boolean full) {
        if (!full) {
            return new RequestBuilder(id, "GET 127.0.0.1/x").outcome("ok", null).started(null, 1_000 + id, 50)
                    .withoutDetail().build();
        }
        return new RequestBuilder(id, "PUT 127.0.0.1/blob").boundary("com.azure.core.http.HttpPipeline#sendSync")
                .url("http://127.0.0.1/blob?<redacted>").outcome("error", "java.io.IOException: reset").statusCode(503)
                .started(CALLER, 1_700_000_000_000_000_000L + id, 2_000_000 + id)
                .hops(new Hops(2, 1, 300, 0, 300, 1, 77,
                        List.of(new Hop("handoff", CALLER, LOOP, 10, 300, "io.netty.channel.nio.NioEventLoop", 5_000),
                                new Hop("wake", LOOP, ThreadRef.UNKNOWN, 20, -1, null))))
                .threads(List.of(new ThreadTime(CALLER, 2, 900, 4096), new ThreadTime(LOOP, 1, 400, 128)))
                .segments(List.of(new Segment(CALLER, "start", 1, 5, 4000, -1), new Segment(LOOP, null, 6, 9, 128, 77)))
                .waits(new Waits(15, true, List.of(new Wait("Mono.block", CALLER, LOOP, 5, 20, 300, true, "value"))))
                .spans(new Spans(List.of(new PolicyTime("RetryPolicy", "policy", 1, 29, 28)),
                        List.of(new Span(7, 0, "policy", "RetryPolicy", "sync", 0, CALLER, 1, 30),
                                new Span(8, 7, "policy", "AddHeadersPolicy", null, 1, null, 2, 3))))
                .allocation(new Allocation(4224, 1_000, List.of(new AllocationSite("a.B.c:1", "byte[]", 2, 1 << 20))))
                .lock(new LockContention(3, 31_000_000, List.of(new LockSite("monitor", "java.lang.Object", 3, 31_000_000,
                        "a.B.c:1\nd.E.f:2"))))
                .gc(new GcTime(5_000, List.of(new GcPause(4, "G1New", 11, 12))))
                .carriers(new CarrierUse(2, 5, List.of("ForkJoinPool-1-worker-1", "ForkJoinPool-1-worker-2"), 90_000,
                        60_000, 1_500_000, 1, 25_000_000))
                .unexplained(new Unexplained(50_000_000, 2, List.of(new UnexplainedSite("monitorWait", "a.B.await",
                        "a.Lock", 2, 50_000_000, LOOP, "java.lang.Object.wait:-1\na.B.await:3"))))
                .build();
    }
}
