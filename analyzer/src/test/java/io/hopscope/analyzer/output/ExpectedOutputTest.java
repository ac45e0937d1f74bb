package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.model.AgentWork;
import io.hopscope.analyzer.model.Allocation;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.GcTime;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.Hops;
import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.RequestKinds;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.ServerQueue;
import io.hopscope.analyzer.model.ServerQueueSummary;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.Spans;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.model.Waits;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.RequestBuilder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text and JSON outputs over a fixed model, compared with the files in
 * {@code src/test/resources/expected/}. After an intended change of an output, regenerate them with
 * {@code mvn -pl analyzer test -Dtest=ExpectedOutputTest -Dhopscope.regenerate=true} and review the diff.
 */
class ExpectedOutputTest {

    static final long T0 = 1_763_870_400_000_000_000L; // 2025-11-23 04:00:00 UTC
    static final long MS = 1_000_000L;
    static final ThreadRef CALLER = new ThreadRef(31, 4101, "main-caller");
    static final ThreadRef LOOP = new ThreadRef(42, 4102, "reactor-http-epoll-1");

    static Report report(String file, double scale) {
        long d = (long) (12 * MS * scale);
        Request r = request(d, List.of(new Wait("Mono.block", CALLER, LOOP, T0 + 6 * MS, T0 + 5 * MS + d - MS, 120_000,
                false, "value")));
        NameSummary s = new NameSummary("GET 127.0.0.1/blob", 120, 98.5 / scale, (long) (10 * MS * scale),
                (long) (11 * MS * scale), (long) (12 * MS * scale), d, 10.2 * MS * scale, 2.0, 2, 310_000, 125_000,
                1.0, 1.0 - 0.25 * (scale - 1), 0.25 * (scale - 1), 40_000 * (scale - 1),
                24_000 * scale, 1.5 * MS, 9 * MS, 0.4 * MS, 0, 0, 0, 0.0, 0, 0.15 * MS * scale,
                1 - 0.15 / 10.2, 10);
        RecordingInfo info = new RecordingInfo(file, T0, T0 + 1_500 * MS, true, 1200, 340, "0.1.0", "jfr=" + file,
                1_700_000_000_000_000_000L, 3, 4, 6 * MS, 23, 2_880_000, 4_000_000, 3_000_000, 0,
                LateEvents.NONE, List.of());
        return new Report(info, List.of(s), List.of(r));
    }

    /** The one request of {@link #report}, {@code d} long, with these waits. */
    static Request request(long d, List<Wait> waits) {
        return new RequestBuilder(7, "GET 127.0.0.1/blob").boundary("com.azure.core.http.HttpPipeline#send")
                .url("http://127.0.0.1:8080/blob").outcome("ok", null).statusCode(200).started(CALLER, T0 + 5 * MS, d)
                .hops(new Hops(2, 1, 300_000, 1, 120_000, 0, 0,
                        List.of(new Hop("handoff", CALLER, LOOP, T0 + 6 * MS, 300_000, "io.netty.channel.nio.NioEventLoop"),
                                new Hop("wake", LOOP, CALLER, T0 + 5 * MS + d - MS, 120_000,
                                        "reactor.core.publisher.BlockingSingleSubscriber"))))
                .threads(List.of(new ThreadTime(CALLER, 2, 2 * MS, 4096), new ThreadTime(LOOP, 1, 4 * MS, 20_480)))
                .segments(List.of(new Segment(CALLER, "start", T0 + 5 * MS, T0 + 6 * MS, 4000, 900_000),
                        new Segment(LOOP, "task", T0 + 6 * MS, T0 + 10 * MS, 20_480, 3_000_000),
                        new Segment(CALLER, "resume", T0 + 5 * MS + d - MS, T0 + 5 * MS + d, 96, 800_000)))
                .waits(new Waits(d - 2 * MS, false, waits))
                .spans(new Spans(
                        List.of(new PolicyTime("com.azure.core.http.policy.UserAgentPolicy", "policy", 1, d - 2 * MS, d - 2 * MS),
                                new PolicyTime("com.azure.core.http.policy.RetryPolicy", "policy", 1, d - MS, MS)),
                        List.of(new Span(1, 0, "policy", "com.azure.core.http.policy.RetryPolicy", "async", 0, CALLER,
                                        T0 + 5 * MS, T0 + 5 * MS + d - MS),
                                new Span(2, 1, "policy", "com.azure.core.http.policy.UserAgentPolicy", "async", 1, CALLER,
                                        T0 + 5 * MS, T0 + 5 * MS + d - 2 * MS))))
                .allocation(new Allocation(24_576, 0, List.of(new AllocationSite(
                        "io.netty.buffer.PooledByteBufAllocator.newDirectBuffer:409", "byte[]", 2, 16_384))))
                .lock(new LockContention(1, 2 * MS, List.of(new LockSite("monitor", "java.lang.Object", 1, 2 * MS,
                        "com.example.Cache.get:41\ncom.example.Handler.handle:17"))))
                .gc(new GcTime(MS / 2, List.of(new GcPause(3, "Young Pause", T0 + 8 * MS, T0 + 8 * MS + MS / 2))))
                .unexplained(new Unexplained(1_800_000, 1, List.of(new UnexplainedSite("park", "com.example.Foo.await",
                        "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", 1, 1_800_000, null,
                        "jdk.internal.misc.Unsafe.park\njava.util.concurrent.locks.LockSupport.park:371\n"
                                + "com.example.Foo.await:88"))))
                .build();
    }

    static final ThreadRef POLLER = new ThreadRef(51, 4201, "http-nio-8080-Poller");
    static final ThreadRef EXEC = new ThreadRef(52, 4202, "http-nio-8080-exec-1");
    static final ThreadRef HANDLER = new ThreadRef(53, 4203, "orders-handler-1");
    static final String CALL = "java.net.http.HttpClient#send";

    /**
     * Server requests: request 11 handed over by the server's poller after 2 ms in its queue, its work
     * handed to a handler pool that makes two 6 ms calls, and woken back; a client call beside.
     */
    static Report serverReport() {
        return serverReport(CALL, POLLER);
    }

    /** The same, the calls of {@code call}, the hand-over from {@code poller}. */
    static Report serverReport(String call, ThreadRef poller) {
        Request server = new RequestBuilder(11, "GET /orders/{id}").kind("server")
                .boundary("org.apache.catalina.connector.CoyoteAdapter#service").url("http://127.0.0.1:8080/orders/42")
                .outcome("ok", null).statusCode(200).trace("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331")
                .started(EXEC, T0 + 5 * MS, 20 * MS)
                .hops(new Hops(2, 1, 200_000, 1, 50_000, 0, 0,
                        List.of(new Hop("handoff", poller, EXEC, T0 + 7 * MS, 2 * MS,
                                        "org.apache.tomcat.util.threads.ThreadPoolExecutor", 0, true),
                                new Hop("handoff", EXEC, HANDLER, T0 + 8 * MS, 200_000, "java.util.concurrent.ThreadPoolExecutor"),
                                new Hop("wake", HANDLER, EXEC, T0 + 24 * MS, 50_000, "java.util.concurrent.CompletableFuture"))))
                .serverQueue(new ServerQueue(1, 2 * MS))
                .threads(List.of(new ThreadTime(EXEC, 2, 2 * MS, 3072), new ThreadTime(HANDLER, 1, 15 * MS, 65_536)))
                .segments(List.of(new Segment(EXEC, "start", T0 + 7 * MS, T0 + 8 * MS, 2048, -1),
                        new Segment(HANDLER, "task", T0 + 8 * MS, T0 + 23 * MS, 65_536, -1),
                        new Segment(EXEC, "resume", T0 + 24 * MS, T0 + 25 * MS, 1024, -1)))
                .waits(new Waits(16 * MS, false, List.of(new Wait("CompletableFuture.get", EXEC, HANDLER, T0 + 8 * MS,
                        T0 + 24 * MS, 50_000, false, "value"))))
                .spans(new Spans(List.of(new PolicyTime(call, "boundary", 2, 12 * MS, 12 * MS)),
                        List.of(new Span(1, 0, "boundary", call, "sync", 0, HANDLER, T0 + 9 * MS, T0 + 15 * MS),
                                new Span(2, 0, "boundary", call, "sync", 0, HANDLER, T0 + 16 * MS, T0 + 22 * MS))))
                .allocation(new Allocation(68_608, 0, List.of()))
                .build();
        Request client = new RequestBuilder(12, "GET 127.0.0.1/stock/42").kind("client")
                .boundary("java.net.http.HttpClient#send").url("http://127.0.0.1:9090/stock/42").outcome("ok", null)
                .statusCode(200).started(EXEC, T0 + 40 * MS, 3 * MS)
                .threads(List.of(new ThreadTime(EXEC, 1, 3 * MS, 512)))
                .segments(List.of(new Segment(EXEC, "start", T0 + 40 * MS, T0 + 43 * MS, 512, -1)))
                .allocation(new Allocation(512, 0, List.of()))
                .build();
        NameSummary route = new NameSummary("GET /orders/{id}", 40, 20.0, 18 * MS, 20 * MS, 24 * MS, 25 * MS,
                19 * MS, 1.5, 2, 150_000, 40_000, 0.75, 0.75, 0, 0, 60_000, 0, 12 * MS, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
                AgentWork.NONE, new RequestKinds(40, 0, 0), new ServerQueueSummary(30, 1.5 * MS, 4 * MS));
        NameSummary stock = new NameSummary("GET 127.0.0.1/stock/42", 10, 5.0, 3 * MS, 3 * MS, 3 * MS, 3 * MS,
                3 * MS, 0, 0, 0, 0, 0, 0, 0, 0, 512, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, AgentWork.NONE,
                new RequestKinds(0, 10, 0), ServerQueueSummary.NONE);
        RecordingInfo info = new RecordingInfo("server.jfr", T0, T0 + 1_000 * MS, true, 900, 0, "0.1.0", "jfr=server.jfr",
                1_700_000_000_000_000_000L, 3, 0, 0, 40, 2_000_000, 0, 0, 0, LateEvents.NONE, List.of());
        return new Report(info, List.of(route, stock), List.of(server, client));
    }

    @Test
    void textReportOfServerRequests() throws Exception {
        StringWriter out = new StringWriter();
        TextReport.write(serverReport(), "duration", new PrintWriter(out));
        compare("report-server.txt", out.toString());
    }

    @Test
    void textReport() throws Exception {
        StringWriter out = new StringWriter();
        TextReport.write(report("a.jfr", 1), "duration", new PrintWriter(out));
        compare("report.txt", out.toString());
    }

    @Test
    void jsonReport() throws Exception {
        StringWriter out = new StringWriter();
        JsonReport.write(report("a.jfr", 1), out);
        compare("report.json", out.toString());
    }

    @Test
    void textDiff() throws Exception {
        StringWriter out = new StringWriter();
        TextDiff.write(DiffBuilder.diff(report("a.jfr", 1), report("b.jfr", 2)), new PrintWriter(out));
        compare("diff.txt", out.toString());
    }

    @Test
    void jsonDiff() throws Exception {
        StringWriter out = new StringWriter();
        JsonDiff.write(DiffBuilder.diff(report("a.jfr", 1), report("b.jfr", 2)), out);
        compare("diff.json", out.toString());
    }

    static void compare(String name, String actual) throws Exception {
        Path expected = Paths.moduleDir().resolve("src/test/resources/expected").resolve(name);
        if (Boolean.getBoolean("hopscope.regenerate")) {
            Files.createDirectories(expected.getParent());
            Files.writeString(expected, actual);
        }
        assertThat(expected).exists();
        assertThat(actual).isEqualTo(Files.readString(expected));
    }
}
