package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Cli;
import io.hopscope.analyzer.testing.ContractEvents;
import io.hopscope.analyzer.testing.KernelFixture;
import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.Paths;
import io.hopscope.analyzer.testing.ServerRequestRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct reader is held to the JDK's: every command that reads a recording, in every output format,
 * prints and writes the same bytes and exits the same with {@code --reader direct} as with
 * {@code --reader jdk}, over the recordings the tests make (one chunk, several chunks with requests and a
 * renamed thread across them, a server's requests, the kernel join's), the recordings of other JVMs and
 * profilers, and damaged files. Formats the JDK cannot read (JDK 7 and 8's) are refused alike.
 */
class ReaderDifferentialTest {

    private static final String OUT = "{out}";
    private static final String FILE = "{file}";

    @TempDir
    static Path dir;
    static Path known;
    static Path multi;
    static Path server;

    @BeforeAll
    static void record() throws Exception {
        known = dir.resolve("known.jfr");
        KnownPathRecording.write(known, 3, 10);
        server = dir.resolve("server.jfr");
        ServerRequestRecording.write(server, ServerRequestRecording.SERVER_QUEUE_NANOS);
        multi = dir.resolve("multi.jfr");
        recordChunks(multi);
    }

    /**
     * Several chunks (a recording started and stopped rotates the chunk), requests that begin in one chunk
     * and end in the next, parks with stacks, and a worker thread renamed between chunks (the JDK's reader
     * keeps a thread's name from the chunk before while its id is in both).
     */
    private static void recordChunks(Path file) throws Exception {
        try (Recording r = new Recording()) {
            r.enable(ContractEvents.Request.class);
            r.enable(ContractEvents.Segment.class);
            r.enable(ContractEvents.Hop.class);
            r.enable("jdk.ThreadPark").withThreshold(java.time.Duration.ZERO).withStackTrace();
            r.start();
            Thread worker = new Thread(() -> {
                for (int id = 1; id <= 24; id++) {
                    ContractEvents.Request end = new ContractEvents.Request();
                    end.begin();
                    ContractEvents.Segment s = new ContractEvents.Segment();
                    s.begin();
                    LockSupport.parkNanos(200_000);
                    s.requestId = id;
                    s.kind = "start";
                    s.allocatedBytes = id * 8L;
                    s.cpuNanos = -1;
                    s.commit();
                    if (id % 4 == 2) {
                        rotate(); // the request ends in the next chunk
                        Thread.currentThread().setName("worker-" + id);
                    }
                    ContractEvents.instantSegment(id, "end", 16);
                    end.requestId = id;
                    end.name = id % 3 == 0 ? "GET /a" : "GET /b";
                    end.outcome = "ok";
                    end.startThread = Thread.currentThread();
                    end.commit();
                }
            }, "worker-0");
            worker.start();
            worker.join();
            r.stop();
            r.dump(file);
        }
    }

    private static void rotate() {
        try (Recording rotate = new Recording()) {
            rotate.start();
            rotate.stop();
        }
    }

    /** Every command and output format that reads one recording. */
    private static List<String[]> everyOutput() {
        return List.of(
                new String[] {"report", FILE},
                new String[] {"report", FILE, "--top", "all", "--sort", "start"},
                new String[] {"report", FILE, "--format", "json", "--top", "all"},
                new String[] {"report", FILE, "--format", "json", "--sample", "3"},
                new String[] {"report", FILE, "--format", "html", "-o", OUT},
                new String[] {"flame", FILE, "--kind", "hops", "--format", "folded"},
                new String[] {"flame", FILE, "--kind", "cpu", "--format", "folded"},
                new String[] {"flame", FILE, "--kind", "wall", "--format", "folded"},
                new String[] {"flame", FILE, "--kind", "alloc", "--format", "folded"},
                new String[] {"flame", FILE, "--kind", "lock", "--format", "folded"},
                new String[] {"flame", FILE, "--kind", "hops", "-o", OUT},
                new String[] {"trace", FILE, "-o", OUT},
                new String[] {"export", FILE, "--format", "pprof", "-o", OUT},
                new String[] {"export", FILE, "--format", "otlp", "-o", OUT},
                new String[] {"diff", FILE, "{known}"},
                new String[] {"diff", "{known}", FILE, "--format", "json"});
    }

    @Test
    void everyOutputOfTheTestsRecordingsIsTheSame() throws Exception {
        for (Path file : List.of(known, multi, server)) {
            for (String[] args : everyOutput()) {
                assertSameOutput(file, args, false);
            }
        }
    }

    @Test
    void theKernelJoinIsTheSame() throws Exception {
        Path jfr = dir.resolve("kj.jfr");
        Path events = KernelFixture.record(jfr, true).writeEvents(dir.resolve("kj.jsonl"));
        String bpf = events.toString();
        for (String[] args : List.of(
                new String[] {"report", FILE, "--bpf", bpf},
                new String[] {"report", FILE, "--bpf", bpf, "--format", "json"},
                new String[] {"report", FILE, "--bpf", bpf, "--format", "html", "-o", OUT},
                new String[] {"trace", FILE, "--bpf", bpf, "-o", OUT},
                new String[] {"flame", FILE, "--kind", "offwake", "--bpf", bpf, "--format", "folded"},
                new String[] {"export", FILE, "--format", "pprof", "--bpf", bpf, "-o", OUT},
                new String[] {"diff", FILE, FILE, "--bpf-a", bpf, "--bpf-b", bpf, "--format", "json"})) {
            assertSameOutput(jfr, args, false);
        }
    }

    @Test
    void recordingsOfOtherJvmsAndProfilersAreTheSame() throws Exception {
        List<Path> files = new ArrayList<>();
        for (String name : List.of("jdk15.jfr", "jdk21.jfr", "openjdk8u292.jfr", "crash_jdk9.jfr")) {
            files.add(Paths.corpus().resolve(name));
        }
        files.add(Paths.moduleDir().resolve("src/test/resources/fuzz/async-profiler.jfr"));
        files.add(Paths.moduleDir().resolve("src/test/resources/chunks/drift-jdk17.jfr"));
        for (Path file : files) {
            for (String[] args : everyOutput()) {
                assertSameOutput(file, args, false);
            }
        }
    }

    @Test
    void oldFormatsAreRefusedAlikeInOneLine() throws Exception {
        Path jdk7 = Paths.corpus().resolve("7u40.jfr");
        // A JDK 8 (before 8u262) file written uncompressed: format 0.9 in the header.
        byte[] bytes = Files.readAllBytes(known);
        bytes[4] = 0;
        bytes[5] = 0;
        bytes[6] = 0;
        bytes[7] = 9;
        Path jdk8 = Files.write(dir.resolve("format09.jfr"), bytes);
        for (Path file : List.of(jdk7, jdk8)) {
            for (String reader : List.of("jdk", "direct")) {
                Cli r = Cli.run("report", file.toString(), "--reader", reader);
                assertThat(r.exitCode()).as(file + " " + reader).isEqualTo(2);
                assertThat(r.err().strip()).as(file + " " + reader).hasLineCount(1).contains("is not supported");
                assertThat(r.out()).isEmpty();
            }
            assertSameOutput(file, new String[] {"report", FILE}, false);
        }
    }

    @Test
    void aFileTheDirectReaderDoesNotReadIsReadByTheJdksWithOneWarning() throws Exception {
        // Header byte 67, bit 0: compressed integers. HotSpot always sets it and the JDK's reader ignores it.
        byte[] bytes = Files.readAllBytes(known);
        bytes[67] &= ~1;
        Path file = Files.write(dir.resolve("flag-cleared.jfr"), bytes);
        Cli jdk = Cli.run("report", file.toString(), "--reader", "jdk");
        Cli direct = Cli.run("report", file.toString());
        assertThat(direct.exitCode()).isZero().isEqualTo(jdk.exitCode());
        assertThat(direct.out()).isEqualTo(jdk.out());
        assertThat(direct.err()).isEqualTo("warning: " + file + ": the direct reader cannot read it (chunk 1: the chunk"
                + " header says its integers are not compressed), read it with the jdk's (--reader jdk)\n" + jdk.err());
    }

    @Test
    void damagedFilesAreTheSame() throws Exception {
        byte[] recording = Files.readAllBytes(Paths.moduleDir().resolve("src/test/resources/fuzz/known-path.jfr"));
        Path file = dir.resolve("damaged.jfr");
        for (int seed = 1; seed <= 16; seed++) {
            byte[] bytes = recording.clone();
            Random random = new Random(seed);
            for (int i = 0; i < 8; i++) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
            }
            Files.write(file, bytes);
            assertSameOutput(file, new String[] {"report", FILE, "--format", "json", "--top", "3"}, true);
        }
        for (int cut = 100; cut < recording.length; cut += recording.length / 7) {
            Files.write(file, Arrays.copyOf(recording, cut));
            assertSameOutput(file, new String[] {"report", FILE}, true);
        }
    }

    /**
     * Runs {@code args} with each reader and compares exit code, stdout, stderr and the file written; a
     * damaged file may be one the direct reader hands to the JDK's, with a notice on stderr.
     */
    private static void assertSameOutput(Path file, String[] args, boolean damaged) throws Exception {
        Path out = dir.resolve("out.bin");
        String what = file.getFileName() + ": " + String.join(" ", args);
        Run jdk = run(file, args, "jdk", out);
        Run direct = run(file, args, "direct", out);
        assertThat(direct.cli.exitCode()).as(what + ": " + direct.cli.err()).isEqualTo(jdk.cli.exitCode());
        assertThat(direct.cli.out()).as(what).isEqualTo(jdk.cli.out());
        String directErr = direct.cli.err();
        if (damaged) {
            directErr = directErr.lines().filter(l -> !l.contains("the direct reader cannot read it"))
                    .map(l -> l + "\n").collect(Collectors.joining());
        }
        assertThat(directErr).as(what).isEqualTo(jdk.cli.err());
        assertThat(direct.written).as(what + ": the file written").isEqualTo(jdk.written);
    }

    private record Run(Cli cli, byte[] written) {
    }

    private static Run run(Path file, String[] args, String reader, Path out) throws Exception {
        Files.deleteIfExists(out);
        List<String> a = new ArrayList<>();
        for (String arg : args) {
            a.add(arg.replace(FILE, file.toString()).replace(OUT, out.toString()).replace("{known}", known.toString()));
        }
        a.add("--reader");
        a.add(reader);
        Cli cli = Cli.run(a.toArray(String[]::new));
        return new Run(cli, Files.exists(out) ? Files.readAllBytes(out) : null);
    }
}
