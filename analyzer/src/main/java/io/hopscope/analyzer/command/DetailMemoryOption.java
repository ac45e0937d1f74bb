package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.AnalysisOptions;
import picocli.CommandLine.Option;

/** {@code --detail-memory SIZE}: the memory a command keeps the requests' event lists in ({@code @Mixin} it). */
public final class DetailMemoryOption {

    @Option(names = "--detail-memory", paramLabel = "SIZE", converter = ByteSize.class,
            description = "Most memory for the requests' hop/segment/wait/span lists, with those still in flight"
                    + " (e.g. 64m; default a quarter of the heap). A request beyond it keeps exact totals and no"
                    + " lists: report shows it without them, trace leaves it out, export leaves out its hops;"
                    + " a warning says so.")
    Long bytes;

    /** The budget in bytes: the option when given, else a quarter of the heap. */
    long bytes() {
        return bytes != null ? bytes : AnalysisOptions.defaultDetailBytes();
    }
}
