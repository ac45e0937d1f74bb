package io.hopscope.testapps;

import java.io.IOException;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;

/**
 * Apache HttpClient 4 against {@link ClientServer}: {@code count} GETs, half through execute(request)
 * and half with a ResponseHandler, then one to a port where nothing listens.
 */
public final class HttpClient4App {

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int ok = 0;
        int failed = 0;
        try (ClientServer server = new ClientServer(); CloseableHttpClient client = HttpClients.createDefault()) {
            for (int i = 0; i < count; i++) {
                String body;
                if (i % 2 == 0) {
                    try (CloseableHttpResponse response = client.execute(new HttpGet(server.helloUrl()))) {
                        body = EntityUtils.toString(response.getEntity());
                    }
                } else {
                    body = client.execute(new HttpGet(server.helloUrl()), response -> EntityUtils.toString(response.getEntity()));
                }
                if (ClientServer.BODY.equals(body)) {
                    ok++;
                }
            }
            try {
                client.execute(new HttpGet(ClientServer.refusedUrl())).close();
            } catch (IOException expected) {
                failed++;
            }
        }
        ClientServer.report(ok, count, failed, 1);
    }
}
