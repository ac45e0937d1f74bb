package io.hopscope.testapps;

import java.io.IOException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * Apache HttpClient 5's classic API against {@link ClientServer}: {@code count} GETs with a
 * response handler (the client's non-deprecated execute), then one to a port where nothing listens;
 * with a second argument "nested", then one more inside {@link #nested} (a requests= boundary).
 */
public final class HttpClient5App {

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int ok = 0;
        int failed = 0;
        try (ClientServer server = new ClientServer(); CloseableHttpClient client = HttpClients.createDefault()) {
            for (int i = 0; i < count; i++) {
                String body = client.execute(new HttpGet(server.helloUrl()), response ->
                        response.getCode() == 200 ? EntityUtils.toString(response.getEntity()) : null);
                if (ClientServer.BODY.equals(body)) {
                    ok++;
                }
            }
            try {
                client.execute(new HttpGet(ClientServer.refusedUrl()), response -> response.getCode());
            } catch (IOException expected) {
                failed++;
            }
            if (args.length > 1 && args[1].equals("nested") && !ClientServer.BODY.equals(nested(client, server.helloUrl()))) {
                ok = -1;
            }
        }
        ClientServer.report(ok, count, failed, 1);
    }

    /** The application's own entry point (named with requests=), which calls the client. */
    static String nested(CloseableHttpClient client, String url) throws IOException {
        return client.execute(new HttpGet(url), response -> EntityUtils.toString(response.getEntity()));
    }
}
