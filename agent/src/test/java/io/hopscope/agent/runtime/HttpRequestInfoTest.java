package io.hopscope.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
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

    @Test
    void aParsedUrlGivesWhatItsStringGives() throws Exception {
        List<String> urls = List.of("http://127.0.0.1:8080/blob/a?sig=SECRET&comp=list",
                "https://u:SECRET@h.example/x?comp=1", "http://h.example?sig=SECRET&comp=x", "http://[::1]:8080/x",
                "http://h.example/p#frag?comp=x", "http://h.example:81/p?restype=c#comp=x", "http://h.example",
                "http://h.example/p", "http://h.example:82/p?sig=SECRET");
        for (int round = 0; round < 2; round++) { // the second round hits the caches
            for (String url : urls) {
                HttpRequestInfo fromString = HttpRequestInfo.of("GET", url, keepComp);
                HttpRequestInfo fromUrl = HttpRequestInfo.of("GET", new URL(url), keepComp);
                assertThat(fromUrl.name).as(url).isEqualTo(fromString.name);
                assertThat(fromUrl.url).as(url).isEqualTo(fromString.url).doesNotContain("SECRET");
            }
        }
    }

    @Test
    void aParsedUrlWithAnotherPortOrPathIsNotTakenFromTheCache() throws Exception {
        assertThat(HttpRequestInfo.of("GET", new URL("http://k.example:1/a"), keepComp).url).isEqualTo("http://k.example:1/a");
        assertThat(HttpRequestInfo.of("GET", new URL("http://k.example:2/a"), keepComp).url).isEqualTo("http://k.example:2/a");
        assertThat(HttpRequestInfo.of("GET", new URL("http://k.example:2/b"), keepComp).name).isEqualTo("GET k.example/b");
        assertThat(HttpRequestInfo.of("GET", new URL("https://k.example:2/b"), keepComp).url).isEqualTo("https://k.example:2/b");
    }
}
