package io.hopscope.analyzer.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.Hopscope;
import io.hopscope.analyzer.testing.Cli;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** An option or parameter several commands take is declared once: the same help text in each command's {@code --help}. */
class SharedOptionsTest {

    private static OptionSpec option(String command, String name) {
        OptionSpec option = new CommandLine(new Hopscope()).getSubcommands().get(command).getCommandSpec()
                .findOption(name);
        assertThat(option).as(command + " " + name).isNotNull();
        assertThat(Cli.run(command, "--help").out()).as(command + " --help").contains(name + "=");
        return option;
    }

    private static void sameEverywhere(String name, List<String> commands) {
        OptionSpec first = option(commands.get(0), name);
        assertThat(String.join(" ", first.description())).isNotBlank();
        for (String command : commands.subList(1, commands.size())) {
            OptionSpec other = option(command, name);
            assertThat(other.description()).as(command + " " + name).isEqualTo(first.description());
            assertThat(other.paramLabel()).isEqualTo(first.paramLabel());
            assertThat(Arrays.asList(other.names())).isEqualTo(Arrays.asList(first.names()));
        }
    }

    @Test
    void bpfIsOneOptionInReportTraceExportAndFlame() {
        sameEverywhere("--bpf", List.of("report", "trace", "export", "flame"));
    }

    @Test
    void detailMemoryIsOneOptionInReportTraceAndExport() {
        sameEverywhere("--detail-memory", List.of("report", "trace", "export"));
    }

    @Test
    void nameIsOneOptionInReportTraceExportAndFlame() {
        sameEverywhere("--name", List.of("report", "trace", "export", "flame"));
    }

    @Test
    void agentIsOneOptionInAttachLiveAndRecord() {
        sameEverywhere("--agent", List.of("attach", "live", "record"));
    }

    @Test
    void headersFileAndServiceNameAreOneOptionEachInExportAndLive() {
        sameEverywhere("--headers-file", List.of("export", "live"));
        sameEverywhere("--service-name", List.of("export", "live"));
    }

    @Test
    void theRecordingIsOneParameterInReportTraceExportAndFlame() {
        List<String> commands = List.of("report", "trace", "export", "flame");
        PositionalParamSpec first = recording(commands.get(0));
        for (String command : commands) {
            PositionalParamSpec other = recording(command);
            assertThat(other.paramLabel()).as(command).isEqualTo("RECORDING.jfr");
            assertThat(other.description()).as(command).isEqualTo(first.description());
        }
    }

    private static PositionalParamSpec recording(String command) {
        return new CommandLine(new Hopscope()).getSubcommands().get(command).getCommandSpec().positionalParameters().get(0);
    }
}
