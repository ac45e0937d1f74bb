package io.hopscope.samples.common;

import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The server a scenario's requests go to and what it answers each ({@code @Mixin} it): the embedded
 * server or {@code --uri}, {@code --response-bytes} and {@code --delay-ms}, with their checks. A
 * scenario whose server is slow by default creates it with its own {@code --delay-ms} default.
 */
public final class ServerOptions {

    @Option(names = "--response-bytes", defaultValue = "1024", description = "Response body bytes (default ${DEFAULT-VALUE}).")
    public int responseBytes;

    // No defaultValue: the field's initial value is the default picocli shows and resets to.
    @Option(names = "--delay-ms", description = "Server delay per request in ms (default ${DEFAULT-VALUE}).")
    public long delayMs;

    @Option(names = "--uri", description = "Target server http://HOST:PORT (default: an embedded server).")
    public URI uri;

    public ServerOptions() {
        this(0);
    }

    public ServerOptions(long defaultDelayMs) {
        this.delayMs = defaultDelayMs;
    }

    public void check(CommandSpec spec) {
        Options.atLeast(spec, "--response-bytes", responseBytes, 0);
        Options.atLeast(spec, "--delay-ms", delayMs, 0);
    }

    /** The embedded server, or the one {@code --uri} names once it accepts a connection. */
    public Target open(CommandSpec spec) throws Exception {
        return Target.open(spec, uri);
    }
}
