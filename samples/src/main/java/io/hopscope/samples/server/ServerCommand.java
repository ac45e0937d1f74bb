package io.hopscope.samples.server;

import io.hopscope.samples.common.Options;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code server}: runs the embedded server in the foreground until the process is stopped. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Embedded HTTP/1.1 server (Jetty 12) on 127.0.0.1.",
                "GET /?size=BYTES&delayMs=MS answers size bytes after delayMs; POST /upload reads and "
                        + "discards the body first. Query parameters override --size and --delay-ms.",
                "Example: server --port 0 --delay-ms 5000"})
public final class ServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "8080", description = "TCP port; 0 = ephemeral (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--delay-ms", defaultValue = "0", description = "Default response delay in ms (default ${DEFAULT-VALUE}).")
    long delayMs;

    @Option(names = "--size", defaultValue = "0", description = "Default response body size in bytes (default ${DEFAULT-VALUE}).")
    int sizeBytes;

    @Override
    public Integer call() throws Exception {
        Options.within(spec, "--port", port, 0, 65535);
        Options.atLeast(spec, "--delay-ms", delayMs, 0);
        Options.within(spec, "--size", sizeBytes, 0, SampleServer.MAX_RESPONSE_BYTES);
        SampleServer server;
        try {
            server = SampleServer.start(port, delayMs, sizeBytes);
        } catch (java.io.IOException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
        }
        // Parsed by tests and scripts: keep this line's shape.
        System.out.println("listening on " + server.baseUri());
        System.out.flush();
        server.join();
        return 0;
    }
}
