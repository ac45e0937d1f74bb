package io.hopscope.samples.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bench's section of docs/performance.md: replaced in place, the rest of the file kept byte for byte. */
class MarkdownSectionTest {

    private static final String B = MarkdownSection.BEGIN;
    private static final String E = MarkdownSection.END;

    @Test
    void replacesOnlyWhatIsBetweenTheMarkers() {
        String file = "# Performance\n\nintro\n" + B + "\nold table\n" + E + "\n\n## Analyzer\nkept\n";

        String out = MarkdownSection.replace(file, "| new |\n");

        assertThat(out).isEqualTo("# Performance\n\nintro\n" + B + "\n| new |\n" + E + "\n\n## Analyzer\nkept\n");
        assertThat(MarkdownSection.replace(out, "| newer |")).isEqualTo(
                "# Performance\n\nintro\n" + B + "\n| newer |\n" + E + "\n\n## Analyzer\nkept\n");
    }

    @Test
    void aFileWithoutMarkersGetsTheSectionAtItsEnd() {
        assertThat(MarkdownSection.replace("# Performance\n", "t\n")).isEqualTo("# Performance\n\n" + B + "\nt\n" + E + "\n");
        assertThat(MarkdownSection.replace("# Performance", "t\n")).isEqualTo("# Performance\n\n" + B + "\nt\n" + E + "\n");
    }

    @Test
    void aMissingFileIsTheSectionAlone() {
        assertThat(MarkdownSection.replace(null, "t")).isEqualTo(B + "\nt\n" + E + "\n");
        assertThat(MarkdownSection.replace("", "t\n")).isEqualTo(B + "\nt\n" + E + "\n");
    }

    @Test
    void unpairedOrDisorderedMarkersAreRefused() {
        assertThatThrownBy(() -> MarkdownSection.replace("a\n" + B + "\nb\n", "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(E);
        assertThatThrownBy(() -> MarkdownSection.replace(E + "\n" + B + "\n", "t"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MarkdownSection.replace(B + E + B + E, "t"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
