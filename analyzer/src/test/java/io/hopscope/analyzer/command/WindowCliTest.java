package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hopscope.analyzer.read.ChunkScan;
import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.SpacedRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --from}/{@code --to} on report, diff, flame and trace, over six requests 40 ms apart whose
 * start times the test reads from the recording itself: bounds halfway between two starts select
 * exactly the requests between them. Misuse first.
 */
class WindowCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path recording;
    static String file;
    static List<Long> starts;
    static long origin;

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("spaced.jfr");
        SpacedRecording.write(recording, 6);
        file = recording.toString();
        starts = SpacedRecording.starts(recording);
        origin = ChunkScan.scan(recording).startEpochNanos();
    }

    /** An offset option value (whole milliseconds) for an instant of the recording. */
    private static String offset(long epochNanos) {
        return Math.round((epochNanos - origin) / 1e6) + "ms";
    }

    private static String iso(long epochNanos) {
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochMilli(Math.round(epochNanos / 1e6)));
    }

    private static void oneLine(Cli r, String... parts) {
        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).startsWith("hopscope: ").contains(parts);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badValueIsOneLineNamingTheOptionAndTheForms() {
        oneLine(Cli.run("report", file, "--from", "20 parsecs"), "--from '20 parsecs'", "20s, 500ms", "01:24:58");
        oneLine(Cli.run("trace", file, "--to", "25:99:00"), "--to '25:99:00'");
        oneLine(Cli.run("flame", file, "--kind", "hops", "--from", "2026-13-45T00:00:00Z"), "--from '2026-13-45T00:00:00Z'");
        oneLine(Cli.run("diff", file, file, "--from", "-5s"), "--from '-5s'");
    }

    @Test
    void fromNotBeforeToIsOneLine() {
        oneLine(Cli.run("report", file, "--from", "2s", "--to", "1s"), "--from 2s", "is not before --to 1s");
        oneLine(Cli.run("report", file, "--from", "100ms", "--to", "0.1s"), "is not before");
    }

    @Test
    void windowOutsideTheRecordingIsOneLine() {
        oneLine(Cli.run("report", file, "--from", "1h"), "--from 1h", "after the recording's end", "the recording runs from");
        oneLine(Cli.run("trace", file, "--to", "2000-01-01T00:00:00Z"), "--to 2000-01-01T00:00:00Z",
                "not after the recording's start");
    }

    @Test
    void windowWithNoRequestSaysSoOnStderrAndShowsNone() {
        long gapStart = SpacedRecording.between(starts, 3);
        Cli r = Cli.run("report", file, "--from", offset(gapStart), "--to", offset(gapStart + 2_000_000));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("warning: " + file + ": no request started in the window (--from ")
                .contains("3 started before it, 3 after");
        assertThat(r.out()).contains("no requests.").contains("left out 3 that started before it, 3 after");
    }

    @Test
    void eBpfJoinWithAWindowIsOneLineInEveryCommandNamingItsJoin() {
        String refused = "--from/--to do not apply to the eBPF join (%s) yet: give one or the other%n";
        oneLine(Cli.run("report", file, "--from", "1s", "--bpf", file), refused.formatted("--bpf"));
        oneLine(Cli.run("trace", file, "--to", "1s", "--bpf", file), refused.formatted("--bpf"));
        oneLine(Cli.run("diff", file, file, "--from", "1s", "--bpf-a", file, "--bpf-b", file),
                refused.formatted("--bpf-a, --bpf-b"));
        oneLine(Cli.run("flame", file, "--kind", "offwake", "--from", "1s", "--bpf", file),
                refused.formatted("--kind offwake"));
    }

    @Test
    void offsetsSelectExactlyTheRequestsStartedBetween() throws Exception {
        Cli r = Cli.run("report", file, "--format", "json", "--from", offset(SpacedRecording.between(starts, 2)),
                "--to", offset(SpacedRecording.between(starts, 4)));
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(r.out());
        assertThat(ids(report.get("requests"))).containsExactly(3L, 4L);
        assertThat(names(report.get("summary"))).containsExactlyInAnyOrder("req-3", "req-4");
        JsonNode window = report.get("window");
        assertThat(window.get("leftOutBefore").asLong()).isEqualTo(2);
        assertThat(window.get("leftOutAfter").asLong()).isEqualTo(2);
        assertThat(window.get("originEpochNanos").asLong()).isEqualTo(origin);
        assertThat(window.get("fromEpochNanos").asLong()).isBetween(starts.get(1), starts.get(2));
        assertThat(window.get("toEpochNanos").asLong()).isBetween(starts.get(3), starts.get(4));
    }

    @Test
    void openEndedWindowsAndWallClockTimes() throws Exception {
        Cli from = Cli.run("report", file, "--format", "json", "--from", iso(SpacedRecording.between(starts, 4)));
        assertThat(from.exitCode()).as(from.err()).isZero();
        JsonNode f = JSON.readTree(from.out());
        assertThat(ids(f.get("requests"))).containsExactly(5L, 6L);
        assertThat(f.get("window").get("toEpochNanos").isNull()).isTrue();

        String timeOfDay = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(Math.round(SpacedRecording.between(starts, 1) / 1e6)));
        Cli to = Cli.run("report", file, "--format", "json", "--to", timeOfDay);
        assertThat(to.exitCode()).as(to.err()).isZero();
        JsonNode t = JSON.readTree(to.out());
        assertThat(ids(t.get("requests"))).containsExactly(1L);
        assertThat(t.get("window").get("leftOutAfter").asLong()).isEqualTo(5);
    }

    @Test
    void textReportSaysTheWindowItApplied() {
        Cli r = Cli.run("report", file, "--from", offset(SpacedRecording.between(starts, 2)));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("window: requests that started from \\+\\d+\\.\\d\\d ms = \\d{4}-\\d\\d-\\d\\d "
                        + "[0-9:.]+ UTC \\(--from \\d+ms\\); left out 2 that started before it, 0 after")
                .contains("req-3").doesNotContain("req-2 ");
    }

    @Test
    void traceDrawsOnlyTheWindowsRequests() throws Exception {
        Cli r = Cli.run("trace", file, "--from", offset(SpacedRecording.between(starts, 4)), "-o", "-");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode trace = JSON.readTree(r.out());
        List<String> slices = new ArrayList<>();
        trace.get("traceEvents").forEach(e -> {
            if ("segment".equals(e.path("cat").asText())) {
                slices.add(e.get("name").asText());
            }
        });
        assertThat(slices).containsExactlyInAnyOrder("req-5 #5", "req-6 #6");
    }

    @Test
    void flameFoldsOnlyTheWindowsRequests() {
        Cli r = Cli.run("flame", file, "--kind", "hops", "--format", "folded", "-o", "-",
                "--to", offset(SpacedRecording.between(starts, 2)));
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).isNotEmpty().allMatch(l -> l.startsWith("req-1;") || l.startsWith("req-2;"));
        assertThat(r.err()).contains("note: window: requests that started before +");
    }

    @Test
    void diffReadsEachRecordingInTheWindow() throws Exception {
        Cli r = Cli.run("diff", file, file, "--format", "json", "--from", offset(SpacedRecording.between(starts, 5)));
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode diff = JSON.readTree(r.out());
        List<String> names = new ArrayList<>();
        diff.get("rows").forEach(row -> names.add(row.get("name").asText()));
        assertThat(names).contains("req-6").doesNotContain("req-5", "req-1");
        assertThat(diff.get("windowA").get("leftOutBefore").asLong()).isEqualTo(5);
        assertThat(diff.get("windowB").get("leftOutBefore").asLong()).isEqualTo(5);
    }

    @Test
    void dashIsStandardOutputForEveryCommand() throws Exception {
        Path dash = Path.of("-");
        assertThat(Cli.run("report", file, "-o", "-").out()).contains("hopscope report: " + file);
        assertThat(Cli.run("report", file, "--format", "html", "-o", "-").out()).contains("<html");
        assertThat(Cli.run("diff", file, file, "-o", "-").out()).contains("hopscope diff");
        assertThat(Cli.run("trace", file, "-o", "-").out()).contains("traceEvents");
        assertThat(Cli.run("flame", file, "--kind", "hops", "-o", "-").out()).contains("<canvas id='canvas'");
        assertThat(Cli.run("flame", file, "--kind", "hops", "--format", "folded", "-o", "-").out()).startsWith("req-");
        assertThat(dash).doesNotExist();
    }

    private static List<Long> ids(JsonNode requests) {
        List<Long> ids = new ArrayList<>();
        requests.forEach(r -> ids.add(r.get("id").asLong()));
        ids.sort(null);
        return ids;
    }

    private static List<String> names(JsonNode summary) {
        List<String> names = new ArrayList<>();
        summary.forEach(s -> names.add(s.get("name").asText()));
        return names;
    }
}
