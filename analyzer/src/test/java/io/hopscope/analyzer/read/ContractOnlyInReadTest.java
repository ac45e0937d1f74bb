package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.Paths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only {@code read/} knows the recording contract's field names: no other main source of the analyzer
 * holds one as a string literal. The writers ({@code output/}, {@code export/}) are left out: their
 * literals are JSON keys (docs/json.md) and pprof units, a contract of their own that shares words.
 */
class ContractOnlyInReadTest {

    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    // Words that are a field's name and also something else, where they are that something else.
    private static final Map<String, String> OTHER_MEANING = Map.of(
            "analysis/DiffBuilder.java", "count",
            // A span's kind: a request boundary nested in a request (an outbound call), not Request.boundary.
            "model/Span.java", "boundary");

    @Test
    void noContractFieldNameOutsideRead() throws IOException {
        Set<String> fields = new HashSet<>();
        HopscopeContract.EVENTS.values().forEach(f -> fields.addAll(f.keySet()));
        Path main = Paths.moduleDir().resolve("src/main/java/io/hopscope/analyzer");
        List<String> found = new ArrayList<>();
        int files;
        try (Stream<Path> sources = Files.walk(main)) {
            List<Path> all = sources.filter(p -> p.toString().endsWith(".java")).toList();
            files = all.size();
            for (Path p : all) {
                String at = main.relativize(p).toString().replace('\\', '/');
                if (at.startsWith("read/") || at.startsWith("output/") || at.startsWith("export/")) {
                    continue;
                }
                List<String> lines = Files.readAllLines(p);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = LITERAL.matcher(lines.get(i));
                    while (m.find()) {
                        String word = m.group(1);
                        if (fields.contains(word) && !word.equals(OTHER_MEANING.get(at))) {
                            found.add(at + ":" + (i + 1) + ": \"" + word + "\"");
                        }
                    }
                }
            }
        }
        assertThat(files).isGreaterThan(50);
        assertThat(fields).contains("requestId", "monotonicNanos");
        assertThat(found).isEmpty();
    }
}
