package io.hopscope.agent.instrumentation.jdkhttp;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Jdk11;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.SamplesJar;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The jdk-http sample under the agent: HttpClient.send hands its exchange to the client's selector
 * thread without an executor (registered events, a write on a pooled connection), and the selector
 * hands it to the client's executor, which wakes the caller. Each of those transfers is a hop.
 */
@Isolated("how many callers park depends on the response's timing")
class JdkHttpIT {

    private static final int COUNT = 40;

    @BeforeAll
    static void samplesAreBuilt() {
        SamplesJar.need("io/hopscope/samples/jdkhttp/JdkHttpCommand.class");
    }

    @Test
    void syncSendHopsThroughTheSelectorAndTheClientsExecutorAndIsWokenBack() throws Exception {
        AgentRun run = AgentRun.run("jfr=%JFR%", List.of("-jar", SamplesJar.path().toString(), "jdk-http",
                "--mode", "sync", "--producers", "1", "--io-threads", "2", "--count", Integer.toString(COUNT)));
        checkSyncSends(Requests.outbound(run.cleanRequests(COUNT)));
    }

    /**
     * The same on JDK 11, where the samples (built for 17, their server Jetty 12) do not run: the
     * test application does what the sample's sync mode does, against a server in this JVM.
     */
    @Test
    void syncSendOnJdk11HopsTheSameWay() throws Exception {
        String java = Jdk11.javaOrMissing();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/hello", exchange -> {
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        try {
            AgentRun run = AgentRun.run(java, "jfr=%JFR%", List.of("-cp", System.getProperty("hopscope.test.classes"),
                    "io.hopscope.testapps.JdkHttpClientApp", "http://127.0.0.1:" + server.getAddress().getPort() + "/hello",
                    Integer.toString(COUNT)));
            checkSyncSends(Requests.outbound(run.cleanRequests(COUNT)));
        } finally {
            server.stop(0);
        }
    }

    private static void checkSyncSends(Map<Long, Requests.Request> requests) {
        int woken = 0;
        for (Requests.Request r : requests.values()) {
            r.assertOk("java.net.http.HttpClient#send");
            String caller = Requests.startThreadName(r.request);
            assertThat(r.hops("handoff")).as("handoffs of request %d", r.id)
                    .anyMatch(h -> Requests.threadName(h, "fromThread").equals(caller)
                            && Requests.threadName(h, "toThread").endsWith("-SelectorManager")
                            && h.getString("via").startsWith("jdk.internal.net.http.")
                            && h.getLong("delayNanos") == 0)
                    .anyMatch(h -> Requests.threadName(h, "fromThread").endsWith("-SelectorManager")
                            && Requests.threadName(h, "toThread").startsWith("jdk-http-io-")
                            && h.getString("via").equals("java.util.concurrent.ThreadPoolExecutor"));
            // The selector, an executor thread and the caller, at least.
            assertThat(r.threads()).as("threads of request %d", r.id).hasSizeGreaterThanOrEqualTo(3);
            // A wait whose unpark the agent did not see (a spurious or timed wake) has no waker.
            List<RecordedEvent> wakes = r.hops("wake");
            assertThat(wakes).as("wakes of request %d", r.id).hasSizeLessThanOrEqualTo(r.waits.size());
            for (RecordedEvent wake : wakes) {
                assertThat(Requests.threadName(wake, "toThread")).isEqualTo(caller);
                assertThat(Requests.threadName(wake, "fromThread")).startsWith("jdk-http-io-");
            }
            if (!wakes.isEmpty()) {
                woken++;
            }
        }
        // A response can be there before the caller parks; most are not, on loopback or not.
        assertThat(woken).isGreaterThan(requests.size() / 2);
    }
}
