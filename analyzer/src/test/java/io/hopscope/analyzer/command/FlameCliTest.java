package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.KnownPathFile;
import io.hopscope.analyzer.testing.KnownPathRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code hopscope flame}: misuse first, then each kind's folded stacks on a real known-path recording. */
class FlameCliTest {

    @RegisterExtension
    static final KnownPathFile recording = new KnownPathFile(3);

    @TempDir
    static Path dir;

    @Test
    void kindIsRequired() {
        Cli r = Cli.run("flame", recording.file().toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required option: '--kind=KIND'").contains("Usage: hopscope flame");
    }

    @Test
    void unknownKindNamesTheKinds() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "gpu");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("cpu, wall, alloc, lock, offwake, hops");
    }

    @Test
    void offwakeWithoutBpfIsOneLine() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "offwake");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--kind offwake needs --bpf FILE");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void bpfWithAnotherKindIsRefused() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "hops", "--bpf", "x.jsonl");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("--bpf is only for --kind offwake");
    }

    @Test
    void nameAndRequestExcludeEachOther() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "hops", "--name", "x", "--request", "1");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("mutually exclusive");
    }

    @Test
    void hopsShowEachPoolWithTimeAndTheHopsDelays() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "hops", "--format", "folded");
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        String root = KnownPathRecording.NAME + ";";
        assertThat(lines).anyMatch(l -> l.startsWith(root + "pool known-path-A;known-path-A "))
                .anyMatch(l -> l.startsWith(root + "pool known-path-B;known-path-B "))
                .anyMatch(l -> l.startsWith(root + "pool known-path-caller;known-path-caller;wait CompletableFuture.get "))
                .anyMatch(l -> l.startsWith(root + "OuterPolicy;InnerPolicy;pool known-path-caller;known-path-caller "))
                .anyMatch(l -> l.startsWith(root + "queue delay to pool known-path-A "))
                .anyMatch(l -> l.startsWith(root + "wake latency to pool known-path-caller "))
                .allMatch(l -> l.matches(".+ [1-9][0-9]*"));
        // B holds the request at least while it is blocked on the monitor (30 ms a request, 3 requests).
        long bNanos = lines.stream().filter(l -> l.startsWith(root + "pool known-path-B;"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(bNanos).isGreaterThanOrEqualTo(3 * 30_000_000L);
    }

    @Test
    void oneRequestOnly() {
        Cli all = Cli.run("flame", recording.file().toString(), "--kind", "hops", "--format", "folded");
        Cli none = Cli.run("flame", recording.file().toString(), "--kind", "hops", "--format", "folded", "--request", "999999");
        assertThat(none.exitCode()).isZero();
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("nothing for --kind hops in the selected requests");
        assertThat(all.out()).isNotEmpty();
    }

    @Test
    void allocIsWeightedByBytesWithTheClassOnTop() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "alloc", "--format", "folded", "--name", "*KnownPath*");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // A and B allocate 1 MiB byte arrays inside the request, 3 requests: sampled, so at least one shows.
        assertThat(r.out().lines()).anyMatch(l -> l.startsWith(KnownPathRecording.NAME + ";") && l.contains(";byte[]_[k] "))
                .allMatch(l -> l.startsWith(KnownPathRecording.NAME + ";"));
    }

    @Test
    void lockIsTheContendedMonitorUnderTheRequest() {
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "lock", "--format", "folded");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines()).anyMatch(l -> l.startsWith(KnownPathRecording.NAME + ";")
                && l.contains(";" + KnownPathRecording.KnownLock.class.getName() + "_[k] "));
    }

    @Test
    void htmlIsAsyncProfilersFlameGraph() throws Exception {
        Path html = dir.resolve("hops.html");
        Cli r = Cli.run("flame", recording.file().toString(), "--kind", "hops", "-o", html.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readString(html)).contains("<canvas id='canvas'").contains("const cpool = [")
                .contains("pool known-path-A").contains("hopscope hops (ns): all requests");
    }
}
