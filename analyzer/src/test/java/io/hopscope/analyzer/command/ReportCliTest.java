package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KnownPathFile;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.Paths;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The CLI as a user meets it: misuse first, then bad data, then real recordings; stdout, stderr, exit code. */
class ReportCliTest {

    @RegisterExtension
    static final KnownPathFile recording = new KnownPathFile(2);

    @TempDir
    static Path dir;

    // --- misuse: usage on stderr, exit 2

    @Test
    void noArgumentsPrintsUsage() {
        Cli r = Cli.run();
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("missing subcommand").contains("Usage: hopscope");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknownSubcommandPrintsUsage() {
        Cli r = Cli.run("frobnicate");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Unmatched argument").contains("Usage: hopscope");
    }

    @Test
    void reportWithoutRecordingPrintsUsage() {
        Cli r = Cli.run("report");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter").contains("Usage: hopscope report");
    }

    @Test
    void htmlFormatIsOnePageWithTheRequestsAndNothingFetched() throws IOException {
        Path html = dir.resolve("report.html");
        Cli r = Cli.run("report", recording.file().toString(), "--format", "html", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains(KnownPathRecording.NAME).contains("\"hops\":3")
                .contains("known-path-caller").contains("hopscope hops (ns)");
        // Self-contained: no src= or href= to anything outside the page, and a policy that forbids fetching.
        assertThat(page).doesNotContainPattern("(src|href)=\"(https?:)?//").contains("default-src 'none'");
    }

    @Test
    void diffHasNoHtml() {
        Cli r = Cli.run("diff", recording.file().toString(), recording.file().toString(), "--format", "html");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("diff has no html format; use text or json");
    }

    @Test
    void badOptionValuesPrintUsage() {
        assertThat(Cli.run("report", recording.file().toString(), "--top", "-1").err()).contains("--top must be >= 0");
        assertThat(Cli.run("report", recording.file().toString(), "--top", "-1").exitCode()).isEqualTo(2);
        Cli sort = Cli.run("report", recording.file().toString(), "--sort", "colour");
        assertThat(sort.exitCode()).isEqualTo(2);
        assertThat(sort.err()).contains("--sort").contains("duration, hops, allocated");
        assertThat(Cli.run("report", recording.file().toString(), "--format", "xml").err()).contains("expected text, json or html, got 'xml'");
        for (String size : new String[] {"lots", "-1m", "12q", "99999999999g"}) {
            Cli memory = Cli.run("report", recording.file().toString(), "--detail-memory", size);
            assertThat(memory.exitCode()).as(size).isEqualTo(2);
            assertThat(memory.err()).as(size).contains("expected a size in bytes such as 64m, 512k or 1g, got '" + size + "'");
        }
    }

    @Test
    void detailMemoryTakesSizesAsXmxDoesAndNamesItsLimitWhenAShownRequestIsCut() {
        Cli none = Cli.run("report", recording.file().toString(), "--detail-memory", "0", "--top", "1");
        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.err()).contains("1 of the 1 requests shown have totals but no event lists")
                .contains("lists are kept within 0 B (--detail-memory)");
        Cli enough = Cli.run("report", recording.file().toString(), "--detail-memory", "1M", "--top", "1");
        assertThat(enough.exitCode()).as(enough.err()).isZero();
        assertThat(enough.err()).isEmpty();
    }

    @Test
    void helpShowsAnExample() {
        Cli r = Cli.run("report", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Example: hopscope report app.jfr");
    }

    // --- bad data: one lower-case line naming the file, exit 2, no stack trace

    @Test
    void notAJfrFile() throws IOException {
        Path text = Files.writeString(dir.resolve("notes.txt"), "hello, not a recording\n");
        assertOneLineError(Cli.run("report", text.toString()), text + ": not a jfr recording (no FLR magic at the start)");
    }

    @Test
    void emptyFile() throws IOException {
        Path empty = Files.createFile(dir.resolve("empty.jfr"));
        assertOneLineError(Cli.run("report", empty.toString()), empty + ": empty file, not a jfr recording");
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("missing.jfr");
        assertOneLineError(Cli.run("report", missing.toString()), missing + ": no such file");
    }

    @Test
    void directoryIsNotARecording() {
        assertOneLineError(Cli.run("report", dir.toString()), dir + ": is a directory, not a jfr recording");
    }

    @Test
    void truncatedFirstChunkHasNothingReadable() throws IOException {
        byte[] all = Files.readAllBytes(recording.file());
        Path cut = Files.write(dir.resolve("cut.jfr"), Arrays.copyOf(all, all.length / 2));
        Cli r = Cli.run("report", cut.toString());
        assertOneLineError(r, cut + ": truncated recording, its first chunk is incomplete");
    }

    @Test
    void truncatedLaterChunkReportsTheReadablePartWithAWarning() throws IOException {
        // Two chunks (JFR files concatenate), the second cut short: what a JVM killed mid-write leaves.
        byte[] all = Files.readAllBytes(recording.file());
        Path cut = dir.resolve("two-chunks-cut.jfr");
        try (OutputStream out = Files.newOutputStream(cut)) {
            out.write(all);
            out.write(all, 0, all.length / 2);
        }
        Cli r = Cli.run("report", cut.toString(), "--format", "json");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err().strip()).isEqualTo("warning: " + cut + ": truncated recording: read the 1 complete chunk(s), "
                + all.length + " of " + (all.length + all.length / 2) + " bytes; the rest is lost");
        assertThat(r.out()).contains("\"hops\" : 3");
    }

    @Test
    void outputFileThatCannotBeWritten() {
        Path out = dir.resolve("no/such/dir/report.txt");
        assertOneLineError(Cli.run("report", recording.file().toString(), "-o", out.toString()),
                out + ": cannot write output file");
    }

    @Test
    void jrockitEraRecordingIsRefusedNamingTheFormat() {
        Path old = Paths.corpus().resolve("7u40.jfr");
        assertOneLineError(Cli.run("report", old.toString()), old + ": gzip-compressed jfr format 0.9");
    }

    @Test
    void recordingWithoutHopscopeEventsSaysSoAndReportsJdkFigures() {
        Path jdk15 = Paths.corpus().resolve("jdk15.jfr");
        Cli r = Cli.run("report", jdk15.toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.err().strip()).isEqualTo("warning: " + jdk15
                + ": no hopscope events (not recorded under the hopscope agent); only what the jdk events allow is reported");
        // jfr summary counts 108 jdk.GarbageCollection events in this file.
        assertThat(r.out()).contains("gc: 108 collection(s)").contains("no requests.");
    }

    @Test
    void corpusRecordingsOfOtherJdksAreRead() {
        for (String name : new String[] {"jdk21.jfr", "openjdk8u292.jfr", "crash_jdk9.jfr"}) {
            Cli r = Cli.run("report", Paths.corpus().resolve(name).toString(), "--format", "json");
            assertThat(r.exitCode()).as(name).isZero();
            assertThat(r.err()).as(name).contains("no hopscope events").doesNotContain("\tat ");
            assertThat(r.out()).as(name).contains("\"requests\" : [ ]");
        }
        Cli jdk21 = Cli.run("report", Paths.corpus().resolve("jdk21.jfr").toString());
        assertThat(jdk21.out()).contains("gc: 2 collection(s)").contains("(estimated from jdk.ObjectAllocationSample weights)");
    }

    // --- real recordings

    @Test
    void textReportShowsSummaryThenWorstRequestsWithLanes() {
        Cli r = Cli.run("report", recording.file().toString(), "--top", "1");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err()).isEmpty();
        String out = r.out();
        assertThat(out.indexOf("name ")).isLessThan(out.indexOf("worst 1 request(s) by duration:"));
        assertThat(out).contains("3 hop(s) (2 handoff, 1 wake), 3 thread(s)")
                .contains("hop 1: handoff known-path-caller -> known-path-A")
                .contains("hop 3: wake    known-path-B -> known-path-caller")
                .contains("monitor " + KnownPathRecording.KnownLock.class.getName())
                .containsPattern("known-path-B +\\|[ =.0-9]+\\|");
    }

    @Test
    void jsonReportHasTheDocumentedFields() throws IOException {
        Path out = dir.resolve("report.json");
        Cli r = Cli.run("report", recording.file().toString(), "--format", "json", "-o", out.toString(), "--sort", "lock");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).isEmpty();
        JsonNode root = new ObjectMapper().readTree(out.toFile());
        assertThat(root.get("summary").get(0).get("count").asInt()).isEqualTo(2);
        JsonNode req = root.get("requests").get(0);
        for (String field : new String[] {"id", "name", "startEpochNanos", "durationNanos", "hops", "hopList", "threads",
                "allocatedBytes", "blockedNanos", "lock", "policies", "gcNanos"}) {
            assertThat(req.has(field)).as(field).isTrue();
        }
        assertThat(req.get("hops").asInt()).isEqualTo(3);
        assertThat(req.get("hopList").get(2).get("from").get("name").asText()).isEqualTo("known-path-B");
        assertThat(req.get("threads")).hasSize(3);
        assertThat(req.get("lock").get("nanos").asLong()).isGreaterThanOrEqualTo(25_000_000L);
        assertThat(req.get("lock").get("top").get(0).get("class").asText()).endsWith("KnownLock");
        assertThat(req.get("lock").get("count").asLong()).isPositive();
        assertThat(root.get("requests").get(0).get("lock").get("nanos").asLong())
                .isGreaterThanOrEqualTo(root.get("requests").get(1).get("lock").get("nanos").asLong());
    }

    static void assertOneLineError(Cli r, String start) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("hopscope: " + start);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
