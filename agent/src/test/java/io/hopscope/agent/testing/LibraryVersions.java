package io.hopscope.agent.testing;

import io.hopscope.agent.instrumentation.SupportedVersions;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The class paths of the libraries at the tested ends of their supported range: the modules of
 * testlibs/ (NAME-VERSION, each a target/lib of jars), which the reactor builds before the agent.
 */
public final class LibraryVersions {

    private LibraryVersions() {
    }

    /** The jars of one testlibs module, as a class path. */
    public static String classPath(String module) {
        Path lib = Path.of(System.getProperty("hopscope.testlibs", "../testlibs"), module, "target", "lib");
        if (!Files.isDirectory(lib)) {
            throw new AssertionError("no " + lib + ": build testlibs/" + module
                    + " first (mvn package or verify from the root: the agent's pom does not name it)");
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Each JVM the ITs run on (Handovers#jvms) with each tested end of {@code versions}: the
     * arguments {@code (java, version, classPath)} of a parameterized IT. The system property
     * {@code hopscope.ends} ({@code oldest}, {@code newest} or versions, comma-separated) keeps only
     * those ends, to run one library's IT on one end.
     */
    public static Stream<Arguments> ends(String instrumentation, SupportedVersions versions) {
        return Handovers.jvms().flatMap(java -> Stream.of(versions.oldest(), versions.newest()).distinct()
                .filter(version -> wanted(version, versions))
                .map(version -> Arguments.of(java, version,
                        classPath(SupportedVersions.module(instrumentation, version)))));
    }

    private static boolean wanted(String version, SupportedVersions versions) {
        String only = System.getProperty("hopscope.ends", "").trim();
        if (only.isEmpty()) {
            return true;
        }
        for (String end : only.split(",")) {
            String e = end.trim();
            if (e.equals(version) || e.equals("oldest") && version.equals(versions.oldest())
                    || e.equals("newest") && version.equals(versions.newest())) {
                return true;
            }
        }
        return false;
    }
}
