package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import org.junit.jupiter.api.Test;

/** {@code live --otlp}'s misuse, refused before any process is touched (the real run: LiveOtlpIT). */
class LiveOtlpCliTest {

    @Test
    void otlpMustBeHttp() {
        Cli r = Cli.run("live", "1", "--otlp", "ftp://127.0.0.1/x");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--otlp must be an http:// or https:// URL with a host");
    }

    @Test
    void headersFileIsForOtlp() {
        Cli r = Cli.run("live", "1", "--headers-file", "h.txt");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--headers-file is for --otlp");
    }

    @Test
    void unreadableHeadersFileIsOneLine() {
        Cli r = Cli.run("live", "1", "--otlp", "http://127.0.0.1:1", "--headers-file", "/nonexistent/h.txt");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("hopscope: /nonexistent/h.txt: cannot read the headers file");
    }
}
