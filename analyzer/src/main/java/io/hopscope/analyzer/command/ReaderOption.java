package io.hopscope.analyzer.command;

import io.hopscope.analyzer.analysis.RecordingAnalyzer;
import io.hopscope.analyzer.analysis.kernel.OffCpuAttribution;
import io.hopscope.analyzer.read.JfrEvents;
import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code --reader direct|jdk}: which reader decodes a command's recordings ({@code @Mixin} it). */
public final class ReaderOption {

    @Option(names = "--reader", paramLabel = "READER", defaultValue = "direct",
            description = "How the recording is read: direct (the analyzer's decoder, chunks in parallel; default)"
                    + " or jdk (the JDK's jdk.jfr.consumer, the reference; both give the same output). A file the"
                    + " direct reader cannot read is read with the JDK's, with a warning.")
    JfrEvents.Reader reader = JfrEvents.Reader.direct;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** {@code analyzer} reading with the chosen reader, its notices on the command's stderr. */
    RecordingAnalyzer apply(RecordingAnalyzer analyzer) {
        return analyzer.reader(reader, notices());
    }

    /** {@code join} reading with the chosen reader when it reads the recording in a pass of its own. */
    OffCpuAttribution apply(OffCpuAttribution join) {
        return join.reader(reader, notices());
    }

    private Consumer<String> notices() {
        PrintWriter err = mixee.commandLine().getErr();
        return line -> {
            err.println(line);
            err.flush();
        };
    }
}
