package io.hopscope.analyzer.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.analysis.DiffBuilder;
import io.hopscope.analyzer.model.AllocationSite;
import io.hopscope.analyzer.model.CarrierUse;
import io.hopscope.analyzer.model.GcPause;
import io.hopscope.analyzer.model.Hop;
import io.hopscope.analyzer.model.LateEvents;
import io.hopscope.analyzer.model.LockContention;
import io.hopscope.analyzer.model.LockSite;
import io.hopscope.analyzer.model.NameSummary;
import io.hopscope.analyzer.model.PolicyTime;
import io.hopscope.analyzer.model.RecordingInfo;
import io.hopscope.analyzer.model.Report;
import io.hopscope.analyzer.model.Request;
import io.hopscope.analyzer.model.Segment;
import io.hopscope.analyzer.model.Span;
import io.hopscope.analyzer.model.ThreadRef;
import io.hopscope.analyzer.model.ThreadTime;
import io.hopscope.analyzer.model.Unexplained;
import io.hopscope.analyzer.model.UnexplainedSite;
import io.hopscope.analyzer.model.Wait;
import io.hopscope.analyzer.testing.Paths;
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
        return new Request(7, "GET 127.0.0.1/blob", "com.azure.core.http.HttpPipeline#send",
                "http://127.0.0.1:8080/blob", "ok", null, 200, CALLER, T0 + 5 * MS, d, 2,
                List.of(new Hop("handoff", CALLER, LOOP, T0 + 6 * MS, 300_000, "io.netty.channel.nio.NioEventLoop"),
                        new Hop("wake", LOOP, CALLER, T0 + 5 * MS + d - MS, 120_000, "reactor.core.publisher.BlockingSingleSubscriber")),
                List.of(new ThreadTime(CALLER, 2, 2 * MS, 4096), new ThreadTime(LOOP, 1, 4 * MS, 20_480)),
                List.of(new Segment(CALLER, "start", T0 + 5 * MS, T0 + 6 * MS, 4000, 900_000),
                        new Segment(LOOP, "task", T0 + 6 * MS, T0 + 10 * MS, 20_480, 3_000_000),
                        new Segment(CALLER, "resume", T0 + 5 * MS + d - MS, T0 + 5 * MS + d, 96, 800_000)),
                waits,
                List.of(new Span(1, 0, "policy", "com.azure.core.http.policy.RetryPolicy", "async", 0, CALLER,
                                T0 + 5 * MS, T0 + 5 * MS + d - MS),
                        new Span(2, 1, "policy", "com.azure.core.http.policy.UserAgentPolicy", "async", 1, CALLER,
                                T0 + 5 * MS, T0 + 5 * MS + d - 2 * MS)),
                24_576, 0, d - 2 * MS, 300_000, 120_000, 1, 1, 0, 0, false,
                List.of(new PolicyTime("com.azure.core.http.policy.UserAgentPolicy", "policy", 1, d - 2 * MS, d - 2 * MS),
                        new PolicyTime("com.azure.core.http.policy.RetryPolicy", "policy", 1, d - MS, MS)),
                new LockContention(1, 2 * MS, List.of(new LockSite("monitor", "java.lang.Object", 1, 2 * MS,
                        "com.example.Cache.get:41\ncom.example.Handler.handle:17"))),
                List.of(new AllocationSite("io.netty.buffer.PooledByteBufAllocator.newDirectBuffer:409", "byte[]", 2, 16_384)),
                MS / 2, List.of(new GcPause(3, "Young Pause", T0 + 8 * MS, T0 + 8 * MS + MS / 2)), CarrierUse.NONE, true,
                new Unexplained(1_800_000, 1, List.of(new UnexplainedSite("park", "com.example.Foo.await",
                        "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", 1, 1_800_000, null,
                        "jdk.internal.misc.Unsafe.park\njava.util.concurrent.locks.LockSupport.park:371\n"
                                + "com.example.Foo.await:88"))));
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
