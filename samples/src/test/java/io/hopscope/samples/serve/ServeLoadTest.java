package io.hopscope.samples.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The load of {@code serve} against services that answer wrongly: each response is checked (status,
 * the body naming the request's own trace id, the handler's time), and a wrong one is counted and
 * named, which {@code serve} turns into exit 1.
 */
class ServeLoadTest {

    @Test
    void aWrongStatusIsAnErrorOfEveryRequest() throws Exception {
        String out = runAgainst(exchange -> new Answer(503, "busy", null));

        assertThat(out).contains("client_sent: 5\n", "client_ok: 0\n", "client_errors: 5\n")
                .containsPattern("client_first_error: the first request \\(trace [0-9a-f]{32}\\): response status 503,"
                        + " expected 200: busy\n");
    }

    @Test
    void aBodyForAnotherRequestIsAnError() throws Exception {
        String out = runAgainst(exchange -> new Answer(200, "ok 0123456789abcdef0123456789abcdef backend=10 work=ab\n", "5"));

        assertThat(out).contains("client_errors: 5\n")
                .containsPattern("client_first_error: .*response body 'ok 0123456789abcdef0123456789abcdef backend=10"
                        + " work=ab', expected 'ok [0-9a-f]{32} backend=10 work=\\.\\.\\.'");
    }

    @Test
    void aResponseWithoutTheHandlersTimeIsAnError() throws Exception {
        String out = runAgainst(exchange -> new Answer(200, "ok " + traceId(exchange) + " backend=10 work=ab\n", null));

        assertThat(out).contains("client_errors: 5\n").contains("no X-Handler-Nanos header");
    }

    @Test
    void theRightAnswerIsCountedAndEachLineOfTheProtocolIsThere() throws Exception {
        String out = runAgainst(exchange -> new Answer(200, "ok " + traceId(exchange) + " backend=10 work=ab\n", "1000"));

        assertThat(out).startsWith("backend: http://127.0.0.1:").contains("/backend\n# measuring\n")
                .contains("# measured\nclient_sent: 5\nclient_ok: 5\nclient_errors: 0\n")
                .doesNotContain("client_first_error").endsWith("# done\n");
    }

    /** What the fake service answers. */
    private record Answer(int status, String body, String handlerNanos) {
    }

    private static String traceId(HttpExchange exchange) {
        return Service.traceId(exchange.getRequestHeaders().getFirst("traceparent"));
    }

    /** One run of the load (5 measured requests, no warm-up) against a fake service; its stdout. */
    private static String runAgainst(Function<HttpExchange, Answer> service) throws IOException {
        HttpServer fake = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        fake.createContext("/serve", exchange -> {
            Answer a = service.apply(exchange);
            byte[] body = a.body().getBytes(StandardCharsets.US_ASCII);
            if (a.handlerNanos() != null) {
                exchange.getResponseHeaders().add(Service.HANDLER_NANOS_HEADER, a.handlerNanos());
            }
            exchange.sendResponseHeaders(a.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        fake.start();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int code = ServeLoad.run(new String[] {"--target", "http://127.0.0.1:" + fake.getAddress().getPort() + "/serve",
                "--rate", "50", "--warmup", "0", "--count", "5", "--connections", "2", "--backend-delay-ms", "0",
                "--backend-bytes", "10"}, new BufferedReader(new StringReader(ServeLoad.GO + "\n")),
                    new PrintStream(bytes, true, StandardCharsets.UTF_8), () -> { });
            String out = bytes.toString(StandardCharsets.UTF_8);
            assertThat(code).as(out).isZero();
            return out;
        } finally {
            fake.stop(0);
        }
    }
}
