package io.hopscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One run of the shaded jar on a separate JVM, as users run it; fails the test if the JVM does not exit in time. */
record JarRun(int exitCode, String out, String err) {

    static final Path JAR = Path.of(System.getProperty("samples.jar", "target/hopscope-samples.jar"));
    /** The java running the tests (JDK 17 in the build). */
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    static JarRun run(long timeoutS, String... args) throws Exception {
        return on(JAVA, timeoutS, args);
    }

    static JarRun on(String java, long timeoutS, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(java, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("samples-out", ".txt");
        Path err = Files.createTempFile("samples-err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean exited = p.waitFor(timeoutS, TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        assertThat(exited).as("%s exited within %d s; stdout: %s", command, timeoutS, Files.readString(out)).isTrue();
        return new JarRun(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
}
