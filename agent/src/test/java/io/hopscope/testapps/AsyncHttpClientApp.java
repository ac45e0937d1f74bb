package io.hopscope.testapps;

import static org.asynchttpclient.Dsl.asyncHttpClient;
import static org.asynchttpclient.Dsl.config;

import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Response;

/**
 * AsyncHttpClient (over Netty) against {@link ClientServer}, used synchronously as seed 004's
 * benchmark does: {@code count} GETs through executeRequest and the ListenableFuture's get, then one
 * to a port where nothing listens. Its event loop ("ahc-io-1-1", one thread) is the application's,
 * shut down and awaited before the counts are printed, so every completion has run.
 */
public final class AsyncHttpClientApp {

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int ok = 0;
        int failed = 0;
        NioEventLoopGroup loop = new NioEventLoopGroup(1, new DefaultThreadFactory("ahc-io"));
        try (ClientServer server = new ClientServer();
                AsyncHttpClient client = asyncHttpClient(config().setEventLoopGroup(loop))) {
            for (int i = 0; i < count; i++) {
                Response response = client.executeRequest(client.prepareGet(server.helloUrl()).build())
                        .get(10, TimeUnit.SECONDS);
                if (response.getStatusCode() == 200 && ClientServer.BODY.equals(response.getResponseBody())) {
                    ok++;
                }
            }
            try {
                client.prepareGet(ClientServer.refusedUrl()).execute().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException expected) {
                failed++;
            }
        } finally {
            loop.shutdownGracefully(0, 10, TimeUnit.SECONDS).await(30, TimeUnit.SECONDS);
        }
        ClientServer.report(ok, count, failed, 1);
    }
}
