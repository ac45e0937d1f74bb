package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReaderDifferentialTest} on the second JDK (21+), where the JDK's reader converts ticks and keeps
 * threads by rules of its own (the first chunk's tick base, JDK-8351064) that the direct reader follows
 * on that JDK: the analyzer's jar run there with {@code --reader direct} and {@code --reader jdk} over a
 * recording that JDK made (a virtual thread among its requests), the drifting chunks recorded on JDK 17
 * and the corpus, prints and writes the same bytes and exits the same. Skipped without a second JDK,
 * except under CI=true, where it fails.
 */
class ReaderSecondJdkIT {

    @TempDir
    Path dir;

    @Test
    void bothReadersGiveTheSameOutputsOnTheSecondJdk() throws Exception {
        Path java = Paths.secondJava();
        Path cli = Paths.cliJar();
        Paths.needJars(cli);
        Path tiny = dir.resolve("tiny.jfr");
        Process p = new ProcessBuilder(java.toString(), "-XX:StartFlightRecording=filename=" + tiny + ",settings=profile",
                Paths.moduleDir().resolve("src/test/resources/java25/Tiny.java").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("tiny.log").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("tiny.log"))).isZero();

        List<Path> files = new ArrayList<>(List.of(tiny, Paths.moduleDir().resolve("src/test/resources/chunks/drift-jdk17.jfr")));
        for (String name : List.of("jdk15.jfr", "jdk21.jfr", "crash_jdk9.jfr")) {
            files.add(Paths.corpus().resolve(name));
        }
        int compared = 0;
        for (Path file : files) {
            for (List<String> args : List.of(
                    List.of("report", file.toString(), "--top", "all", "--sort", "start"),
                    List.of("report", file.toString(), "--format", "json", "--top", "all"),
                    List.of("flame", file.toString(), "--kind", "hops", "--format", "folded"),
                    List.of("flame", file.toString(), "--kind", "cpu", "--format", "folded"),
                    List.of("trace", file.toString(), "-o", "{out}"),
                    List.of("export", file.toString(), "--format", "otlp", "-o", "{out}"))) {
                Run direct = run(java, cli, args, "direct");
                Run jdk = run(java, cli, args, "jdk");
                String what = args + " on " + java;
                assertThat(direct.exit).as(what + "\n" + direct.err).isEqualTo(jdk.exit);
                assertThat(direct.out).as(what).isEqualTo(jdk.out);
                assertThat(direct.err).as(what).isEqualTo(jdk.err.replace(dir.resolve("jdk.out").toString(),
                        dir.resolve("direct.out").toString()));
                assertThat(direct.written).as(what).isEqualTo(jdk.written);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(files.size() * 6);
        // The second JDK's own recording is read, not refused alike: its requests are there.
        Run tinyReport = run(java, cli, List.of("report", tiny.toString(), "--format", "json"), "direct");
        assertThat(tinyReport.exit).as(tinyReport.err).isZero();
        assertThat(tinyReport.out).contains("\"GET 127.0.0.1/tiny\"");
    }

    private record Run(int exit, String out, String err, byte[] written) {
    }

    private Run run(Path java, Path cli, List<String> args, String reader) throws Exception {
        Path out = dir.resolve(reader + ".out");
        Files.deleteIfExists(out);
        List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", cli.toString()));
        for (String a : args) {
            command.add(a.equals("{out}") ? out.toString() : a);
        }
        command.addAll(List.of("--reader", reader));
        Process p = new ProcessBuilder(command).redirectOutput(dir.resolve(reader + ".stdout").toFile())
                .redirectError(dir.resolve(reader + ".stderr").toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s", command).isTrue();
        return new Run(p.exitValue(), Files.readString(dir.resolve(reader + ".stdout")),
                Files.readString(dir.resolve(reader + ".stderr")), Files.exists(out) ? Files.readAllBytes(out) : new byte[0]);
    }
}
