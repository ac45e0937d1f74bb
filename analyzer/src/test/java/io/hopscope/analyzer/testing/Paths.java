package io.hopscope.analyzer.testing;

import java.nio.file.Path;

/** Paths the tests use: the repository (README) and the shared corpus beside it (as CI clones them). */
public final class Paths {

    private Paths() {
    }

    public static Path moduleDir() {
        return Path.of(System.getProperty("hopscope.module", ".")).toAbsolutePath().normalize();
    }

    public static Path readme() {
        return moduleDir().resolve("../README.md").normalize();
    }

    public static Path corpus() {
        return Path.of(System.getProperty("hopscope.corpus", moduleDir().resolve("../../shared/corpus/jfr").toString()))
                .toAbsolutePath().normalize();
    }
}
