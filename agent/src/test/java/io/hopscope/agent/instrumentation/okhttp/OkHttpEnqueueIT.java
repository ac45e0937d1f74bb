package io.hopscope.agent.instrumentation.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OkHttp's Call#enqueue is a request boundary that ends in its callback, on the dispatcher thread.
 * On the oldest release supported (4.4) and the newest tested (5).
 */
class OkHttpEnqueueIT {

    private static final int COUNT = 5;

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("okhttp", new OkHttpInstrumentation().versions());
    }

    private static String appClassPath(String libraries) {
        return System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
    }

    @ParameterizedTest(name = "{0} OkHttp {1}")
    @MethodSource("ends")
    void anEnqueuedCallIsOneRequestHandedToTheDispatcherAndEndedInItsCallback(String java, String version,
            String libraries) throws Exception {
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0", List.of("-cp", appClassPath(libraries),
                "io.hopscope.testapps.OkHttpEnqueueApp", Integer.toString(COUNT)));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stdout).contains("responses ok: " + COUNT);
        List<RecordedEvent> events = run.events();
        assertThat(events).noneMatch(e -> e.getEventType().getName().equals("hopscope.AgentError"));
        assertThat(events).filteredOn(e -> e.getEventType().getName().startsWith("hopscope."))
                .noneMatch(e -> e.toString().contains("SECRET"));
        Map<Long, Requests.Request> requests = Requests.outbound(Requests.byId(events));
        assertThat(requests).hasSize(COUNT);
        for (Requests.Request r : requests.values()) {
            assertThat(r.request.getString("boundary")).isEqualTo("okhttp3.Call#enqueue");
            assertThat(r.request.getString("name")).isEqualTo("GET 127.0.0.1/hello");
            // The query is reduced to the default allow-list: sig never reaches the recording.
            assertThat(r.request.getString("url")).endsWith("/hello?comp=list");
            assertThat(r.request.getInt("statusCode")).isEqualTo(200);
            assertThat(r.request.getString("outcome")).isEqualTo("ok");
            assertThat(Requests.startThreadName(r.request)).isEqualTo("main");
            String dispatcher = r.request.getThread().getJavaName();
            assertThat(dispatcher).startsWith("OkHttp ");
            assertThat(r.hops("handoff")).singleElement().satisfies(h -> {
                assertThat(Requests.threadName(h, "fromThread")).isEqualTo("main");
                assertThat(h.getThread().getJavaName()).isEqualTo(dispatcher);
            });
            // The application's interceptor is a span; OkHttp's own chain is not, by default.
            assertThat(r.spans).filteredOn(s -> s.getString("kind").equals("interceptor"))
                    .extracting(s -> s.getString("name"))
                    .containsExactly("io.hopscope.testapps.OkHttpEnqueueApp$TagInterceptor");
        }
    }

    @ParameterizedTest(name = "{0} OkHttp {1}")
    @MethodSource("ends")
    void okHttpsOwnInterceptorsAreSpansWhenAskedFor(String java, String version, String libraries) throws Exception {
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0,okhttp-internal=true",
                List.of("-cp", appClassPath(libraries), "io.hopscope.testapps.OkHttpEnqueueApp", "1"));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stderr).doesNotContain("hopscope:");
        Map<Long, Requests.Request> requests = Requests.outbound(Requests.byId(run.events()));
        assertThat(requests).hasSize(1);
        assertThat(requests.values().iterator().next().spans)
                .filteredOn(s -> s.getString("kind").equals("interceptor"))
                .extracting(s -> s.getString("name"))
                .containsExactly("io.hopscope.testapps.OkHttpEnqueueApp$TagInterceptor",
                        "okhttp3.internal.http.RetryAndFollowUpInterceptor", "okhttp3.internal.http.BridgeInterceptor",
                        "okhttp3.internal.cache.CacheInterceptor", "okhttp3.internal.connection.ConnectInterceptor",
                        "okhttp3.internal.http.CallServerInterceptor");
    }
}
