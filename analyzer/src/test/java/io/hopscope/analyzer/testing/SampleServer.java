package io.hopscope.analyzer.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The samples' embedded server (Jetty 12) as a recording shows it: under the agent, each call a
 * sample makes to it is also an inbound request of the server's (kind server), named by its path
 * alone ({@code GET /}, beside the client's {@code GET 127.0.0.1/}), in the same recording. A test
 * about the sample's calls takes them apart from the server's.
 */
public final class SampleServer {

    /** The server's requests' boundary. */
    public static final String BOUNDARY = "org.eclipse.jetty.server.Server#handle";

    private SampleServer() {
    }

    /** Whether a request of a JSON report is one the samples' server answered. */
    public static boolean served(JsonNode request) {
        return BOUNDARY.equals(request.path("boundary").asText());
    }

    /** Of a JSON report's requests, the sample's calls (not the server's). */
    public static List<JsonNode> calls(Iterable<JsonNode> requests) {
        List<JsonNode> calls = new ArrayList<>();
        requests.forEach(r -> {
            if (!served(r)) {
                calls.add(r);
            }
        });
        return calls;
    }

    /** Of a JSON report's requests, the server's. */
    public static List<JsonNode> servedIn(Iterable<JsonNode> requests) {
        List<JsonNode> served = new ArrayList<>();
        requests.forEach(r -> {
            if (served(r)) {
                served.add(r);
            }
        });
        return served;
    }

    /**
     * Whether a request name (a summary's, live's) is a server's: a method and a path with no host
     * ({@code GET /}), where a client's names its host ({@code GET 127.0.0.1/}).
     */
    public static boolean servedName(String name) {
        int space = name.indexOf(' ');
        return space > 0 && name.startsWith("/", space + 1);
    }
}
