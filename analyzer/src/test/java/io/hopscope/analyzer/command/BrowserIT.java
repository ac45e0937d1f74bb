package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.hopscope.analyzer.testing.Chromium;
import io.hopscope.analyzer.testing.CiSkip;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.FlightRecorderLock;
import io.hopscope.analyzer.testing.HostileRecording;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The HTML report and an HTML flame graph opened as a person would, in Debian's headless Chromium:
 * what renders (request names, hop counts), that no script error occurs, that hostile names stay text.
 * Screenshots go to target/browser/. Skipped only when chromium is missing outside CI; with CI=true a
 * missing chromium fails the build (.ci/run installs it).
 */
@ResourceLock(FlightRecorderLock.NAME)
class BrowserIT {

    @TempDir
    static Path dir;
    static Chromium chromium;
    static Path knownPath;
    static Path hostile;

    @BeforeAll
    static void setUp() throws Exception {
        Optional<Chromium> found = Chromium.find();
        CiSkip.unless(found.isPresent(), "chromium is not on PATH: install Debian's chromium (apt-get install chromium;"
                + " .ci/run does)");
        chromium = found.get();
        knownPath = dir.resolve("known-path.jfr");
        KnownPathRecording.write(knownPath, 2, 30);
        hostile = dir.resolve("hostile.jfr");
        HostileRecording.write(hostile, 2);
    }

    @Test
    void reportShowsRequestNamesHopCountsAndTimelinesWithoutScriptErrors() throws Exception {
        Path html = dir.resolve("known-path.html");
        Cli r = Cli.run("report", knownPath.toString(), "--format", "html", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();

        Chromium.Run run = chromium.dumpDom(html, dir);
        assertNoScriptError(run);
        assertThat(run.dom()).contains("data-rendered=\"ok\"")
                .contains(KnownPathRecording.NAME)
                .contains("3 hops")
                // two timelines, each with a lane per thread and an arrow per hop
                .containsPattern("(?s)<svg.*known-path-caller.*known-path-A.*known-path-B.*</svg>")
                .contains("hop 1 handoff: known-path-caller -&gt; known-path-A")
                .contains("hop 3 wake: known-path-B -&gt; known-path-caller")
                .contains("hopscope hops (ns)");
        assertThat(count(run.dom(), "<line[^>]*class=\"arrow-handoff\"")).isEqualTo(2 * 2);
        assertThat(count(run.dom(), "<line[^>]*class=\"arrow-wake\"")).isEqualTo(2);

        Path png = Paths.moduleDir().resolve("target/browser/report.png");
        chromium.screenshot(html, png, 1400, dir);
        assertPng(png);
    }

    @Test
    void hostileThreadAndRequestNamesShowAsTextAndNeverRun() throws Exception {
        Path html = dir.resolve("hostile.html");
        Cli r = Cli.run("report", hostile.toString(), "--format", "html", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();

        Chromium.Run run = chromium.dumpDom(html, dir);
        assertNoScriptError(run);
        // Text nodes serialize with < and > escaped: the names are there as text...
        assertThat(run.dom()).contains("&lt;img src=x onerror=alert(1)&gt;")
                .contains("GET /search?q=&lt;script&gt;alert(2)&lt;/script&gt;")
                .contains("2 hops");
        // ...and never as elements: the report itself has no img, and no script says alert.
        assertThat(run.dom()).doesNotContain("<img").doesNotContain("<script>alert").doesNotContain("<i>via");
        assertThat(run.log()).doesNotContain("alert(");
        chromium.screenshot(html, Paths.moduleDir().resolve("target/browser/hostile-report.png"), 1000, dir);
    }

    @Test
    void flameGraphRendersAndKeepsHostileFramesAsText() throws Exception {
        Path html = dir.resolve("hostile-hops.html");
        Cli r = Cli.run("flame", hostile.toString(), "--kind", "hops", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();

        Chromium.Run run = chromium.dumpDom(html, dir);
        assertNoScriptError(run);
        assertThat(run.dom()).contains("<canvas id=\"canvas\"").contains("hopscope hops (ns): all requests")
                // the frame names are in the page's script as strings, < written \x3c
                .contains("\\x3cimg src=x onerror=alert(1)>")
                .doesNotContain("<img").doesNotContain("<script>alert");

        Path known = dir.resolve("known-path-hops.html");
        assertThat(Cli.run("flame", knownPath.toString(), "--kind", "hops", "-o", known.toString()).exitCode()).isZero();
        Chromium.Run knownRun = chromium.dumpDom(known, dir);
        assertNoScriptError(knownRun);
        // (the page stores frame names prefix-compressed: "pool known-path-B" is "B" after "...-A")
        assertThat(knownRun.dom()).contains("' pool known-path-A'")
                .contains("' queue delay to pool known-path-A'").contains("' wait CompletableFuture.get'");
        Path png = Paths.moduleDir().resolve("target/browser/flame.png");
        chromium.screenshot(known, png, 500, dir);
        assertPng(png);
    }

    @Test
    void kernelViewRendersAndKeepsEbpfNamesAsText() throws Exception {
        Path jfr = dir.resolve("kj.jfr");
        Path events = ReportHtmlKernelTest.write(KernelFixture.record(jfr, true), dir.resolve("kj.jsonl"));
        Path html = dir.resolve("kernel.html");
        Cli r = Cli.run("report", jfr.toString(), "--format", "html", "--bpf", events.toString(), "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();

        Chromium.Run run = chromium.dumpDom(html, dir);
        assertNoScriptError(run);
        assertThat(run.dom()).contains("data-rendered=\"ok\"").contains("Kernel (eBPF)")
                .contains("kernel: off-CPU 25.00 ms, run queue 5.50 ms, 3 context switch(es), 1 futex wait(s)")
                .contains("kj-loop -&gt; kj-caller in Mono.block (1)")
                .contains("&lt;img src=x onerror=alert(3)&gt; [hardirq]")
                .contains("hopscope offwake (ns)")
                .doesNotContain("<img");
        assertThat(run.log()).doesNotContain("alert(");
        chromium.screenshot(html, Paths.moduleDir().resolve("target/browser/kernel-report.png"), 1200, dir);
    }

    private static void assertNoScriptError(Chromium.Run run) {
        assertThat(run.log().lines().filter(l -> l.contains(":CONSOLE")))
                .as("console output of the page").noneMatch(l -> l.contains("Uncaught") || l.contains("Error")
                        || l.contains("Content Security Policy") || l.contains("Refused"));
        if (run.dom().contains("id=\"script-errors\"")) {
            // the report writes window.onerror's findings into this element
            assertThat(run.dom()).contains("<div id=\"script-errors\"></div>");
        }
    }

    private static void assertPng(Path png) throws Exception {
        assertThat(png).isRegularFile();
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(10_000);
        assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    private static int count(String s, String regex) {
        return (int) java.util.regex.Pattern.compile(regex).matcher(s).results().count();
    }
}
