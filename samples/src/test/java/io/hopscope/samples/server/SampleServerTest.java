package io.hopscope.samples.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded server over a real socket: sizes, delays, uploads and its refusals. */
class SampleServerTest {

    private static SampleServer server;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeAll
    static void start() throws Exception {
        server = SampleServer.start(0, 0, 7);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static HttpResponse<byte[]> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void badQueryIs400() throws Exception {
        assertThat(send(HttpRequest.newBuilder(server.baseUri().resolve("/?size=abc"))).statusCode()).isEqualTo(400);
        assertThat(send(HttpRequest.newBuilder(server.baseUri().resolve("/?size=-1"))).statusCode()).isEqualTo(400);
        assertThat(send(HttpRequest.newBuilder(server.baseUri().resolve("/?delayMs=-1"))).statusCode()).isEqualTo(400);
    }

    @Test
    void uploadElsewhereIs404AndDeleteIs405() throws Exception {
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.ofByteArray(new byte[10]);
        assertThat(send(HttpRequest.newBuilder(server.baseUri().resolve("/x")).POST(body)).statusCode()).isEqualTo(404);
        assertThat(send(HttpRequest.newBuilder(server.baseUri().resolve("/")).DELETE()).statusCode()).isEqualTo(405);
    }

    @Test
    void ephemeralPortIsReal() {
        assertThat(server.port()).isPositive();
        assertThat(server.baseUri()).isEqualTo(URI.create("http://127.0.0.1:" + server.port()));
    }

    @Test
    void getAnswersDefaultSizeOrTheAskedOne() throws Exception {
        HttpResponse<byte[]> byDefault = send(HttpRequest.newBuilder(server.baseUri().resolve("/anything")));
        HttpResponse<byte[]> asked = send(HttpRequest.newBuilder(server.baseUri().resolve("/?size=100000")));

        assertThat(byDefault.statusCode()).isEqualTo(200);
        assertThat(byDefault.body()).hasSize(7);
        assertThat(asked.statusCode()).isEqualTo(200);
        assertThat(asked.body()).hasSize(100_000);
    }

    @Test
    void delayIsHonoured() throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(server.baseUri().resolve("/?delayMs=300&size=1")));
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(tookMs).isGreaterThanOrEqualTo(300);
    }

    @Test
    void uploadIsReadAndCounted() throws Exception {
        HttpResponse<byte[]> r = send(HttpRequest.newBuilder(server.baseUri().resolve("/upload?size=3"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1_000_000])));

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).hasSize(3);
        assertThat(r.headers().firstValue(SampleServer.RECEIVED_BYTES_HEADER)).hasValue("1000000");
    }
}
