package io.hopscope.analyzer.read;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Which of the two eBPF outputs a file holds, decided from its first non-blank line (not from its
 * name): {@code offwake --events} JSON Lines start with {@code {}, {@code offwaketime -f} folded lines
 * are {@code name;frames...;--;...;name COUNT}. Anything else is refused naming the file.
 */
public enum BpfInput {
    EVENTS, FOLDED;

    /** A folded line: frames separated by {@code ;}, a {@code --} element between wakee and waker, a count. */
    static final Pattern FOLDED_LINE = Pattern.compile("^[^;]*;(?:.*;)?--(?:;.*)? \\d+$");

    public static BpfInput detect(Path file) throws RecordingProblem {
        if (!Files.isRegularFile(file)) {
            throw new RecordingProblem(file + ": no such file (give the --events or --folded output of bpf/offwake.py)");
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String t = line.strip();
                if (t.isEmpty()) {
                    continue;
                }
                if (t.startsWith("{")) {
                    return EVENTS;
                }
                if (FOLDED_LINE.matcher(t).matches()) {
                    return FOLDED;
                }
                throw new RecordingProblem(file + ": not eBPF output: expected offwake --events json lines or "
                        + "offwaketime -f folded lines, the first line is neither");
            }
            throw new RecordingProblem(file + ": empty eBPF file (was the traced process idle, or tracing too short?)");
        } catch (NoSuchFileException e) {
            throw new RecordingProblem(file + ": no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new RecordingProblem(file + ": not eBPF output (not utf-8 text)");
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read: " + e.getMessage());
        }
    }
}
