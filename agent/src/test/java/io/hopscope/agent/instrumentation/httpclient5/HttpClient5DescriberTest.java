package io.hopscope.agent.instrumentation.httpclient5;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.UrlRedactor;
import java.lang.reflect.Field;
import java.util.Set;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.Message;
import org.apache.hc.core5.http.message.BasicClassicHttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The one describer of HttpClient 5, with the library's own request and response objects: a classic
 * request and an async client's request producer are named alike, and the status is read from a
 * classic response, a SimpleHttpResponse and a Message whose head is the response.
 */
class HttpClient5DescriberTest {

    private static final String URL = "http://127.0.0.1:8080/orders?id=7";

    private final HttpClient5Describer describer = new HttpClient5Describer();
    private final UrlRedactor redactor = new UrlRedactor(Set.of());

    @Test
    void namesTheClassicRequestAndTheAsyncProducersRequestAlike() throws Exception {
        HttpRequestInfo classic = describer.describe(new HttpGet(URL), redactor);
        HttpRequestInfo async = describer.describe(SimpleRequestProducer.create(SimpleHttpRequest.create("GET", URL)),
                redactor);
        assertThat(field(classic, "name")).isEqualTo("GET 127.0.0.1/orders");
        assertThat(field(async, "name")).isEqualTo(field(classic, "name"));
        assertThat(field(async, "url")).isEqualTo(field(classic, "url"));
        assertThat(describer.describe("not a request", redactor)).isNull();
    }

    @Test
    void readsTheStatusOfEachResponseShape() {
        assertThat(describer.statusCode(new BasicClassicHttpResponse(503))).isEqualTo(503);
        assertThat(describer.statusCode(SimpleHttpResponse.create(201))).isEqualTo(201);
        assertThat(describer.statusCode(new Message<>(SimpleHttpResponse.create(404), "body"))).isEqualTo(404);
        assertThat(describer.statusCode("not a response")).isEqualTo(-1);
    }

    private static Object field(HttpRequestInfo info, String name) throws ReflectiveOperationException {
        Field f = HttpRequestInfo.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(info);
    }
}
