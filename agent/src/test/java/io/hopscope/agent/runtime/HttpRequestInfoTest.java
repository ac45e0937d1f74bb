package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Request names and redacted URLs, taken apart without java.net.URI. */
class HttpRequestInfoTest {

    private final UrlRedactor keepComp = new UrlRedactor(Set.of("comp", "restype"));

    @Test
    void theNameIsMethodHostAndPathWithoutPortOrQuery() {
        HttpRequestInfo info = HttpRequestInfo.of("GET", "http://127.0.0.1:8080/blob/a?sig=SECRET", keepComp);
        assertThat(info.name).isEqualTo("GET 127.0.0.1/blob/a");
        assertThat(info.url).isEqualTo("http://127.0.0.1:8080/blob/a");
    }

    @Test
    void onlyAllowListedParametersSurviveInTheirOrder() {
        assertThat(keepComp.redact("https://acct.blob.example/c?restype=container&sig=S&comp=list&se=2030"))
                .isEqualTo("https://acct.blob.example/c?restype=container&comp=list");
        assertThat(keepComp.redact("https://acct.blob.example/c?sig=S&sv=1")).isEqualTo("https://acct.blob.example/c");
        assertThat(keepComp.redact("https://acct.blob.example/c?comp")).isEqualTo("https://acct.blob.example/c?comp");
        assertThat(keepComp.redact("https://acct.blob.example/c?compx=1&=comp&comp=a=b"))
                .isEqualTo("https://acct.blob.example/c?comp=a=b");
    }

    @Test
    void userInfoAndFragmentAreNeverKept() {
        assertThat(keepComp.redact("https://user:p%40ss@acct.blob.example:443/c/b?comp=list#frag"))
                .isEqualTo("https://acct.blob.example:443/c/b?comp=list");
        assertThat(keepComp.redact("http://h/p#sig=SECRET")).isEqualTo("http://h/p");
        HttpRequestInfo info = HttpRequestInfo.of("PUT", "https://u:SECRET@h.example/x", keepComp);
        assertThat(info.name).isEqualTo("PUT h.example/x");
        assertThat(info.url).doesNotContain("SECRET");
    }

    @Test
    void anEmptyPathIsNamedSlashAndAQueryRightAfterTheHostIsRedacted() {
        HttpRequestInfo info = HttpRequestInfo.of("GET", "http://h.example?sig=SECRET&comp=x", keepComp);
        assertThat(info.name).isEqualTo("GET h.example/");
        assertThat(info.url).isEqualTo("http://h.example?comp=x");
    }

    @Test
    void ipv6HostsKeepTheirBrackets() {
        assertThat(HttpRequestInfo.of("GET", "http://[::1]:8080/x", keepComp).name).isEqualTo("GET [::1]/x");
        assertThat(HttpRequestInfo.of("GET", "http://[::1]/x", keepComp).name).isEqualTo("GET [::1]/x");
        assertThat(keepComp.redact("http://[::1]:8080/x?sig=S")).isEqualTo("http://[::1]:8080/x");
    }

    @Test
    void whatIsNotAnAbsoluteUrlKeepsTheMethodOnly() {
        for (String bad : new String[] {"/relative?sig=SECRET", "no scheme", "://h/x", "1http://h/x", "http://", "http://u@/x"}) {
            HttpRequestInfo info = HttpRequestInfo.of("GET", bad, keepComp);
            assertThat(info.name).as(bad).isEqualTo("GET ?");
            assertThat(info.url).as(bad).isNull();
        }
    }

    @Test
    void aCachedUrlGivesEachMethodItsOwnName() {
        String url = "http://cache.example/same";
        assertThat(HttpRequestInfo.of("GET", url, keepComp).name).isEqualTo("GET cache.example/same");
        assertThat(HttpRequestInfo.of("PUT", url, keepComp).name).isEqualTo("PUT cache.example/same");
        assertThat(HttpRequestInfo.of("GET", url, keepComp).name).isEqualTo("GET cache.example/same");
        assertThat(HttpRequestInfo.of("GET", url, keepComp)).isSameAs(HttpRequestInfo.of("GET", url, keepComp));
    }

    @Test
    void aCachedBaseStillRedactsEachQueryOnItsOwn() {
        String base = "http://cache.example/q";
        assertThat(HttpRequestInfo.of("GET", base + "?sig=A&comp=list", keepComp).url).isEqualTo(base + "?comp=list");
        assertThat(HttpRequestInfo.of("GET", base + "?sig=B", keepComp).url).isEqualTo(base);
        assertThat(HttpRequestInfo.of("GET", base + "?restype=c#comp=x", keepComp).url).isEqualTo(base + "?restype=c");
        assertThat(HttpRequestInfo.of("GET", base + "#frag?comp=x", keepComp).url).isEqualTo(base);
        assertThat(HttpRequestInfo.of("GET", base + "?sig=C", keepComp).name).isEqualTo("GET cache.example/q");
    }
}
