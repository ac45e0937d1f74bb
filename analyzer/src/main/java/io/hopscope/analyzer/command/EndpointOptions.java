package io.hopscope.analyzer.command;

import io.hopscope.analyzer.export.Headers;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --headers-file} and {@code --service-name}: what the commands that send to a backend (export's
 * profiles, live's metrics) tell it besides the URL ({@code @Mixin} it; each command names its endpoint options).
 */
public final class EndpointOptions {

    @Option(names = "--headers-file", paramLabel = "FILE",
            description = "Headers for the endpoint (--otlp; export's --push too), in the OTEL_EXPORTER_OTLP_HEADERS"
                    + " format (or one a line); used instead of the environment variable.")
    Path headersFile;

    @Option(names = "--service-name", paramLabel = "NAME", defaultValue = "${env:OTEL_SERVICE_NAME:-hopscope}",
            description = "The service.name sent (export: the profiles' resource, Pyroscope's application name;"
                    + " live: the metrics'), default OTEL_SERVICE_NAME, else ${DEFAULT-VALUE}.")
    String service;

    /** The file's headers, else the signal's variable's, else OTEL_EXPORTER_OTLP_HEADERS' (OpenTelemetry's order). */
    Headers headers(String signalVariable) throws CliProblem {
        try {
            if (headersFile != null) {
                return Headers.read(headersFile);
            }
            for (String variable : new String[] {signalVariable, "OTEL_EXPORTER_OTLP_HEADERS"}) {
                String value = System.getenv(variable);
                if (value != null && !value.isBlank()) {
                    return Headers.parse(value, variable);
                }
            }
            return Headers.NONE;
        } catch (Headers.HeaderProblem e) {
            throw new CliProblem(e.getMessage());
        }
    }
}
