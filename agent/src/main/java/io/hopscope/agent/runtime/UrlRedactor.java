package io.hopscope.agent.runtime;

import java.net.URI;
import java.util.Set;

/**
 * Drops a URL's query except the allow-listed parameters (option {@code redact=}), and its
 * user-info and fragment: SAS tokens and credentials must never reach a recording.
 */
public final class UrlRedactor {

    private final Set<String> allowedParameters;

    public UrlRedactor(Set<String> allowedParameters) {
        this.allowedParameters = Set.copyOf(allowedParameters);
    }

    public String redact(URI uri) {
        StringBuilder out = new StringBuilder();
        if (uri.getScheme() != null) {
            out.append(uri.getScheme()).append("://");
        }
        if (uri.getHost() != null) {
            out.append(uri.getHost());
        }
        if (uri.getPort() >= 0) {
            out.append(':').append(uri.getPort());
        }
        if (uri.getRawPath() != null) {
            out.append(uri.getRawPath());
        }
        String query = uri.getRawQuery();
        if (query != null && !allowedParameters.isEmpty()) {
            StringBuilder kept = new StringBuilder();
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                if (allowedParameters.contains(key)) {
                    kept.append(kept.length() == 0 ? "" : "&").append(pair);
                }
            }
            if (kept.length() > 0) {
                out.append('?').append(kept);
            }
        }
        return out.toString();
    }
}
