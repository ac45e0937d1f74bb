package io.hopscope.analyzer.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, run the way the browser test needs it: a fresh profile each time, nothing
 * that phones home, console messages on stderr ({@code INFO:CONSOLE} lines) so script errors show.
 */
public final class Chromium {

    /** What one run printed: the DOM (for --dump-dom) and the browser's log with the page's console. */
    public record Run(String dom, String log) {
    }

    private final Path binary;

    private Chromium(Path binary) {
        this.binary = binary;
    }

    /** The chromium on PATH, if there is one. */
    public static Optional<Chromium> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : new String[] {"chromium", "chromium-browser"}) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(new Chromium(p));
                }
            }
        }
        return Optional.empty();
    }

    /** The DOM after scripts ran (and frames loaded), with the console log. */
    public Run dumpDom(Path page, Path work) throws IOException, InterruptedException {
        return run(page, work, "--dump-dom");
    }

    /** A PNG of the page as a person sees it at 1280 pixels wide. */
    public Run screenshot(Path page, Path png, int heightPixels, Path work) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        return run(page, work, "--window-size=1280," + heightPixels, "--screenshot=" + png.toAbsolutePath(),
                "--hide-scrollbars");
    }

    private Run run(Path page, Path work, String... action) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                // Lets the report's flame graph frames load and draw before the DOM or the picture is taken.
                "--virtual-time-budget=5000"));
        cmd.addAll(List.of(action));
        cmd.add(page.toAbsolutePath().toUri().toString());
        Path out = work.resolve("chromium-" + System.nanoTime() + ".out");
        Path err = work.resolve("chromium-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("chromium did not finish within 90 s: " + String.join(" ", cmd));
        }
        String log = Files.readString(err, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("chromium exited " + p.exitValue() + ": " + log);
        }
        return new Run(Files.readString(out, StandardCharsets.UTF_8), log);
    }
}
