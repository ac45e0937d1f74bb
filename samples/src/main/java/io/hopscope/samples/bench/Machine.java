package io.hopscope.samples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The machine a bench ran on, as its figures need beside them: CPU, cores, kernel, JDK, load. */
record Machine(String cpuModel, int cores, String kernel, String jdk, String loadBefore, String loadAfter) {

    static Machine before(Path java) {
        return new Machine(readCpuModel(), Runtime.getRuntime().availableProcessors(), firstLine(List.of("uname", "-srm"), false),
                firstLine(List.of(java.toString(), "-version"), true), loadAverage(), null);
    }

    Machine after() {
        return new Machine(cpuModel, cores, kernel, jdk, loadBefore, loadAverage());
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // Not Linux.
        }
        return System.getProperty("os.arch");
    }

    /** The 1, 5 and 15 minute load averages. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String firstLine(List<String> command, boolean stderr) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(stderr).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor(30, TimeUnit.SECONDS);
            return out.isEmpty() ? "unknown" : out.lines().findFirst().orElse("unknown")
                    + (stderr ? " (" + out.lines().skip(1).findFirst().orElse("").trim() + ")" : "");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
