package io.hopscope.analyzer.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDKs installed beside the one running us, told apart by the {@code release} file every JDK
 * home has since 9 ({@code JAVA_VERSION="25.0.3"}): the demo's virtual-callers run needs 21 or later.
 */
final class JdkHomes {

    /** Where Debian's and Temurin's packages put their JDKs. */
    static final Path SYSTEM_JVMS = Path.of("/usr/lib/jvm");

    private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(?:1\\.)?(\\d+)");

    /** A JDK home and its feature version (25 for 25.0.3). */
    record Home(Path home, int feature) {
        Path java() {
            return home.resolve("bin").resolve("java");
        }
    }

    private JdkHomes() {
    }

    /**
     * The newest JDK of at least {@code minFeature}: this JVM if it qualifies, {@code JAVA_HOME}, and the
     * homes under {@code /usr/lib/jvm}; at equal versions the first of them in that order.
     */
    static Optional<Home> newest(int minFeature) {
        List<Home> candidates = new ArrayList<>();
        candidates.add(new Home(Path.of(System.getProperty("java.home")), Runtime.version().feature()));
        String javaHome = System.getenv("JAVA_HOME");
        if (javaHome != null && !javaHome.isEmpty()) {
            read(Path.of(javaHome)).ifPresent(candidates::add);
        }
        candidates.addAll(under(SYSTEM_JVMS));
        return newest(minFeature, candidates);
    }

    static Optional<Home> newest(int minFeature, List<Home> candidates) {
        Home best = null;
        for (Home h : candidates) {
            if (h.feature() >= minFeature && Files.isExecutable(h.java()) && (best == null || h.feature() > best.feature())) {
                best = h;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every JDK home directly under {@code dir} that has a readable release file, in name order. */
    static List<Home> under(Path dir) {
        List<Home> homes = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return homes;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            entries.sorted().forEach(home -> read(home).ifPresent(homes::add));
        } catch (IOException e) {
            // An unreadable /usr/lib/jvm holds no JDK we could run.
        }
        return homes;
    }

    /** The home with its feature version from its release file, or empty when it has none we can read. */
    static Optional<Home> read(Path home) {
        try {
            Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(new Home(home, Integer.parseInt(m.group(1)))) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
