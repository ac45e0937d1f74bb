package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as users run it, with what they would give the service's JVM in JAVA_TOOL_OPTIONS:
 * that JVM alone takes it, and a recording of it holds the service's threads and none of the load's
 * or the backend's, which run in a child JVM.
 */
class ServeIT {

    @Test
    void theServicesJvmAloneTakesItsOptionsAndRecordsNothingOfTheLoadOrTheBackend(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("service.jfr");
        Path logs = Files.createDirectory(dir.resolve("logs"));
        // A log file named by the pid of each JVM that takes the options: one, or the child took them too.
        String toolOptions = "-XX:StartFlightRecording=filename=" + jfr + " -Xlog:disable -Xlog:gc:file=" + logs + "/jvm-%p.log";
        ProcessBuilder pb = new ProcessBuilder(JarRun.JAVA, "-jar", JarRun.JAR.toString(), "serve", "--rate", "100",
                "--count", "40", "--backend-delay-ms", "2")
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        pb.environment().put("JAVA_TOOL_OPTIONS", toolOptions);
        pb.environment().remove("JDK_JAVA_OPTIONS");
        Process p = pb.start();
        boolean exited = p.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String run = "stdout:\n" + Files.readString(dir.resolve("out.txt")) + "\nstderr:\n" + Files.readString(dir.resolve("err.txt"));

        assertThat(exited).as(run).isTrue();
        assertThat(p.exitValue()).as(run).isZero();
        assertThat(run).contains("client_ok: 40\n", "handler_requests: 40\n");
        try (Stream<Path> files = Files.list(logs)) {
            assertThat(files.map(f -> f.getFileName().toString()).collect(Collectors.toList()))
                    .as(run).containsExactly("jvm-" + p.pid() + ".log");
        }
        Set<String> threads = threadNames(jfr);
        assertThat(threads).as("threads in the service's recording")
                .anyMatch(t -> t.startsWith("serve-server-"))
                .anyMatch(t -> t.startsWith("serve-work-"))
                .anyMatch(t -> t.startsWith("serve-backend-io-"))
                // The load's client (OkHttp) and the backend (the samples' server) are elsewhere.
                .noneMatch(t -> t.startsWith("OkHttp"))
                .noneMatch(t -> t.startsWith("sample-server"));
    }

    /** Every thread the recording names: its events' threads and the threads it saw start. */
    private static Set<String> threadNames(Path jfr) throws Exception {
        Set<String> names = new TreeSet<>();
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        for (RecordedEvent e : events) {
            add(names, e.getThread());
            if (e.getEventType().getName().equals("jdk.ThreadStart")) {
                add(names, e.getThread("thread"));
            }
        }
        return names;
    }

    private static void add(Set<String> names, RecordedThread t) {
        if (t != null && t.getJavaName() != null) {
            names.add(t.getJavaName());
        }
    }
}
