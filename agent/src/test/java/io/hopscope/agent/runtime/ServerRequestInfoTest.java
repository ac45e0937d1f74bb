package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** An inbound request's name and URL: method and path, the query cut to the allow-list, no path parameter. */
class ServerRequestInfoTest {

    private final UrlRedactor redactor = new UrlRedactor(Set.of("comp"));

    @Test
    void theNameIsMethodAndPathAndTheUrlKeepsOnlyTheAllowList() {
        HttpRequestInfo info = HttpRequestInfo.server("GET", "/orders/42", "sig=SECRET&comp=list", redactor);
        assertThat(info.name).isEqualTo("GET /orders/42");
        assertThat(info.url).isEqualTo("/orders/42?comp=list");
        assertThat(HttpRequestInfo.server("POST", "/orders", "sig=SECRET", redactor).url).isEqualTo("/orders");
    }

    @Test
    void aPathParameterIsCutWithEverythingAfterIt() {
        HttpRequestInfo info = HttpRequestInfo.server("GET", "/cart;jsessionid=SECRET/items", null, redactor);
        assertThat(info.name).isEqualTo("GET /cart");
        assertThat(info.url).isEqualTo("/cart");
    }

    @Test
    void aMissingMethodOrPathAndAnOverlongPathAreBounded() {
        assertThat(HttpRequestInfo.server(null, null, null, redactor).name).isEqualTo("? /");
        String longPath = "/" + "a".repeat(1000);
        assertThat(HttpRequestInfo.server("GET", longPath, null, redactor).name)
                .hasSize("GET ".length() + HttpRequestInfo.SERVER_PATH_LIMIT);
    }
}
