package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KernelRecordingTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** report --bpf and diff --bpf-a/--bpf-b misused or fed bad eBPF files: one line, exit 2, never a stack trace. */
class BpfCliTest extends KernelRecordingTest {

    static void badData(Cli r, String line) {
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip()).isEqualTo(line);
    }

    @Test
    void bpfWithoutAFileIsAUsageError() {
        Cli r = Cli.run("report", jfr.toString(), "--bpf");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter for option '--bpf'").contains("Usage: hopscope report");
    }

    @Test
    void diffWithOnlyOneBpfFileIsAUsageError() {
        Cli r = Cli.run("diff", jfr.toString(), jfr.toString(), "--bpf-a", events.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--bpf-a and --bpf-b go together").contains("Usage: hopscope diff");
    }

    @Test
    void missingFile() {
        Path f = dir.resolve("nope.jsonl");
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()),
                "hopscope: " + f + ": no such file (give the --events or --folded output of bpf/offwake.py)");
    }

    @Test
    void garbageIsNeitherFormat() throws Exception {
        Path f = Files.writeString(dir.resolve("garbage.txt"), "hello world\n");
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()), "hopscope: " + f
                + ": not eBPF output: expected offwake --events json lines or offwaketime -f folded lines, the first line is neither");
    }

    @Test
    void binaryIsRefused() throws Exception {
        Path f = Files.write(dir.resolve("binary.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, (byte) 0x81});
        Cli r = Cli.run("report", jfr.toString(), "--bpf", f.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("hopscope: " + f + ": not ").doesNotContain("Exception");
    }

    @Test
    void emptyFile() throws Exception {
        Path f = Files.writeString(dir.resolve("empty.jsonl"), "\n");
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()),
                "hopscope: " + f + ": empty eBPF file (was the traced process idle, or tracing too short?)");
    }

    @Test
    void aBrokenLineIsNamedByItsNumber() throws Exception {
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(events));
        lines.add(2, "{\"tid\": 5, \"off_ns\": 1, \"on_ns\": ");
        Path f = Files.write(dir.resolve("broken.jsonl"), lines);
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()),
                "hopscope: " + f + ": line 3: not a json object (offwake --events writes one per line)");
    }

    @Test
    void aRecordWithoutTimesIsRefused() throws Exception {
        Path f = Files.writeString(dir.resolve("notimes.jsonl"), "{\"tid\": 5, \"comm\": \"x\"}\n");
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()),
                "hopscope: " + f + ": line 1: no integer field off_ns (not offwake --events output?)");
    }

    @Test
    void aBrokenFoldedLineIsNamedByItsNumber() throws Exception {
        Path f = Files.write(dir.resolve("broken.folded"), List.of("a;x;--;y;b 10", "a;x;y;b ten"));
        badData(Cli.run("report", jfr.toString(), "--bpf", f.toString()),
                "hopscope: " + f + ": line 2: not a folded line (name;frames;--;frames;name COUNT)");
    }

    @Test
    void aRecordingWithoutClockSyncCannotBeAligned() throws Exception {
        Path noSync = dir.resolve("nosync.jfr");
        Path ev = KernelFixture.record(noSync, false).writeEvents(dir.resolve("nosync.jsonl"));
        badData(Cli.run("report", noSync.toString(), "--bpf", ev.toString()), "hopscope: " + noSync
                + ": no hopscope.ClockSync events, so eBPF times cannot be aligned with it (record with the hopscope agent)");
    }

    @Test
    void diffRefusesFoldedInput() throws Exception {
        Path f = Files.write(dir.resolve("diff.folded"), List.of("a;x;--;y;b 10"));
        badData(Cli.run("diff", jfr.toString(), jfr.toString(), "--bpf-a", events.toString(), "--bpf-b", f.toString()),
                "hopscope: " + f + ": folded output has no timestamps, so no per-request figures to compare;"
                        + " give offwake --events output");
    }
}
