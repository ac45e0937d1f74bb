package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which JVMs {@code live --wait PATTERN} takes: the main class or jar of a command line as the java
 * launcher reads it, matched by name, jar file name or wildcard; and a real JVM found in /proc only once
 * it can be attached to, never this one.
 */
class JvmPatternTest {

    @Test
    void theMainIsWhatFollowsTheJvmsOptions() {
        assertThat(JvmPattern.mainOf(List.of("/usr/bin/java", "-Xmx1g", "-cp", "a.jar:b.jar", "com.example.Main", "--port",
                "8080"))).isEqualTo("com.example.Main");
        assertThat(JvmPattern.mainOf(List.of("java", "-javaagent:/agent.jar=requests=x#y", "-jar", "/app/app.jar", "serve")))
                .isEqualTo("/app/app.jar");
        assertThat(JvmPattern.mainOf(List.of("java", "--module-path", "mods", "-m", "com.example/com.example.Main")))
                .isEqualTo("com.example/com.example.Main");
        assertThat(JvmPattern.mainOf(List.of("java", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dx=y",
                "@argfile", "Main"))).isEqualTo("Main");
        assertThat(JvmPattern.mainOf(List.of("java", "-version"))).isNull();
    }

    @Test
    void aPatternMatchesTheMainTheJarsFileNameOrByWildcard() {
        JvmPattern jar = new JvmPattern("app.jar");
        assertThat(jar.matches("/app/app.jar")).isTrue();
        assertThat(jar.matches("app.jar")).isTrue();
        assertThat(jar.matches("/app/app.jar.bak")).isFalse();
        assertThat(jar.matches("/app/myapp.jar")).isFalse();
        assertThat(jar.matches(null)).isFalse();
        assertThat(new JvmPattern("com.example.Main").matches("com.example.Main")).isTrue();
        assertThat(new JvmPattern("com.example.Main").matches("com.exampleXMain")).as("a dot is a dot").isFalse();
        assertThat(new JvmPattern("*.Main").matches("com.example.Main")).isTrue();
        assertThat(new JvmPattern("orders-?.jar").matches("/srv/orders-2.jar")).isTrue();
    }

    @Test
    void aRunningJvmIsFoundByItsMainClassAndThisOneNever() throws Exception {
        // The test's own classes: a JVM whose main class no other process on the machine has.
        Path classes = Paths.moduleDir().resolve("target/test-classes");
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                classes.toString(), Sleeper.class.getName()).redirectErrorStream(true).start();
        try {
            JvmPattern pattern = new JvmPattern("*.JvmPatternTest$Sleeper");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<JvmPattern.Match> found = pattern.find();
            while (found.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
                found = pattern.find();
            }
            assertThat(found).singleElement().satisfies(m -> {
                assertThat(m.pid()).isEqualTo(jvm.pid());
                assertThat(m.main()).isEqualTo(Sleeper.class.getName());
            });
            assertThat(new JvmPattern("*").find()).noneMatch(m -> m.pid() == ProcessHandle.current().pid());
        } finally {
            jvm.destroyForcibly();
        }
    }

    /** A JVM that waits to be found. */
    public static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(60_000);
        }
    }
}
