package io.hopscope.analyzer.read;

import io.hopscope.analyzer.model.WakePair;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads folded {@code offwaketime -f} output (also {@code offwake --folded}): per line the wakee's
 * name, its stacks, {@code --}, the waker's stacks and name, and total microseconds. It has no
 * timestamps and no thread ids, so all it can give is the total per (wakee name, waker name) pair.
 */
public final class FoldedReader {

    /** Shown for lines whose part after {@code --} is empty: nothing woke the thread (it stayed runnable). */
    public static final String NO_WAKER = "(no waker)";

    private FoldedReader() {
    }

    /** One folded line: its frames (wakee name first) and its total microseconds. */
    public interface StackSink {
        void accept(String[] frames, long micros);
    }

    public static List<WakePair> read(Path file) throws RecordingProblem {
        Map<String, long[]> pairs = new HashMap<>();
        forEachStack(file, (frames, micros) -> {
            int sep = -1;
            for (int i = 1; i < frames.length; i++) {
                if (frames[i].equals("--")) {
                    sep = i;
                    break;
                }
            }
            String wakee = frames[0];
            String waker = sep >= 0 && sep < frames.length - 1 && !frames[frames.length - 1].isEmpty()
                    ? frames[frames.length - 1] : NO_WAKER;
            long[] acc = pairs.computeIfAbsent(wakee + '\0' + waker, k -> new long[2]);
            acc[0] += micros;
            acc[1]++;
        });
        List<WakePair> out = new ArrayList<>();
        pairs.forEach((k, v) -> {
            int z = k.indexOf('\0');
            out.add(new WakePair(k.substring(0, z), k.substring(z + 1), v[0], v[1]));
        });
        out.sort(Comparator.comparingLong(WakePair::totalMicros).reversed()
                .thenComparing(WakePair::wakee).thenComparing(WakePair::waker));
        return out;
    }

    /** Hands every line of {@code file} to {@code sink}, in file order; a line that is not folded is refused. */
    public static void forEachStack(Path file, StackSink sink) throws RecordingProblem {
        long lineNo = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String t = line.strip();
                if (t.isEmpty()) {
                    continue;
                }
                if (!BpfInput.FOLDED_LINE.matcher(t).matches()) {
                    throw new RecordingProblem(file + ": line " + lineNo + ": not a folded line (name;frames;--;frames;name COUNT)");
                }
                int space = t.lastIndexOf(' ');
                long micros;
                try {
                    micros = Long.parseLong(t.substring(space + 1));
                } catch (NumberFormatException e) {
                    throw new RecordingProblem(file + ": line " + lineNo + ": count out of range");
                }
                sink.accept(t.substring(0, space).split(";", -1), micros);
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new RecordingProblem(file + ": line " + (lineNo + 1) + ": not utf-8 text");
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read: " + e.getMessage());
        }
    }
}
