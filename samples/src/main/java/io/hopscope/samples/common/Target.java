package io.hopscope.samples.common;

import io.hopscope.samples.server.SampleServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Where a scenario sends its requests: an in-process {@link SampleServer} on an ephemeral port by
 * default, or the server named by {@code --uri} (checked to accept a connection before the run).
 */
public final class Target implements AutoCloseable {

    private final URI base;
    private final SampleServer embedded;

    private Target(URI base, SampleServer embedded) {
        this.base = base;
        this.embedded = embedded;
    }

    /** Opens the target; an unusable {@code --uri} is a usage error. */
    public static Target open(CommandSpec spec, URI uri) throws Exception {
        if (uri == null) {
            SampleServer server = SampleServer.start(0, 0, 0);
            return new Target(server.baseUri(), server);
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new ParameterException(spec.commandLine(), "--uri must be http://HOST:PORT, got " + uri);
        }
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(uri.getHost(), port), 2000);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(),
                    "cannot reach --uri " + uri + ": " + e.getMessage());
        }
        String s = uri.toString();
        return new Target(URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s), null);
    }

    /** The URL of one request: an upload goes to /upload; the query tells the server what to answer. */
    public URI requestUri(boolean upload, int responseBytes, long delayMs) {
        return URI.create(base + (upload ? "/upload" : "/") + "?size=" + responseBytes + "&delayMs=" + delayMs);
    }

    public URI base() {
        return base;
    }

    @Override
    public void close() {
        if (embedded != null) {
            embedded.close();
        }
    }

    /** Throws if a response is not 200 with exactly the expected body length. */
    public static void validate(int status, long bodyBytes, int expectedBytes) {
        if (status != 200) {
            throw new ResponseCheckException("response status " + status + ", expected 200");
        }
        if (bodyBytes != expectedBytes) {
            throw new ResponseCheckException("response body " + bodyBytes + " bytes, expected " + expectedBytes);
        }
    }
}
