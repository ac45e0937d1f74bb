package io.hopscope.testapps;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;

/**
 * Apache HttpClient 5's async API against {@link ClientServer}: {@code count} GETs, the even ones
 * with a FutureCallback the caller waits for, the odd ones without one (the caller waits in the
 * Future's get), then one with a callback to a port where nothing listens. One I/O thread
 * ("httpclient-dispatch-1") and one connection per route: each GET after the first waits until the
 * connection is back in the pool, so that it is queued on that pooled connection by the caller (the
 * first is queued by the I/O thread that made the connection). The client is shut down and its I/O
 * thread joined before the counts are printed, so every completion has run. Written against the API
 * that HttpClient 5.0, the oldest release supported, has too.
 */
public final class HttpAsyncClient5App {

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        PoolingAsyncClientConnectionManager connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnPerRoute(1).build();
        CloseableHttpAsyncClient client = HttpAsyncClients.custom().setConnectionManager(connections)
                .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build()).build();
        client.start();
        try (ClientServer server = new ClientServer()) {
            for (int i = 0; i < count; i++) {
                SimpleHttpRequest request = get(server.helloUrl());
                SimpleHttpResponse response;
                if (i % 2 == 0) {
                    Waiting callback = new Waiting(ok, failed);
                    client.execute(request, callback);
                    callback.await();
                } else {
                    response = client.execute(request, null).get(10, TimeUnit.SECONDS);
                    if (response.getCode() == 200 && ClientServer.BODY.equals(response.getBodyText())) {
                        ok.incrementAndGet();
                    }
                }
                // The client releases the connection on its I/O thread after the response: wait for it.
                for (int waited = 0; connections.getTotalStats().getLeased() > 0
                        || connections.getTotalStats().getAvailable() == 0; waited++) {
                    if (waited == 10_000) {
                        throw new IllegalStateException("the connection did not come back to the pool");
                    }
                    Thread.sleep(1);
                }
            }
            Waiting refused = new Waiting(ok, failed);
            client.execute(get(ClientServer.refusedUrl()), refused);
            refused.await();
        } catch (ExecutionException e) {
            e.printStackTrace();
        } finally {
            client.initiateShutdown();
            client.awaitShutdown(TimeValue.ofSeconds(30));
            client.close(CloseMode.GRACEFUL);
        }
        ClientServer.report(ok.get(), count, failed.get(), 1);
    }

    /** A GET (SimpleRequestBuilder, the newer way, came with 5.1). */
    static SimpleHttpRequest get(String url) {
        return new SimpleHttpRequest("GET", URI.create(url));
    }

    /** Counts the outcome and lets the caller go on. */
    static final class Waiting implements FutureCallback<SimpleHttpResponse> {
        private final CountDownLatch done = new CountDownLatch(1);
        private final AtomicInteger ok;
        private final AtomicInteger failed;

        Waiting(AtomicInteger ok, AtomicInteger failed) {
            this.ok = ok;
            this.failed = failed;
        }

        @Override
        public void completed(SimpleHttpResponse response) {
            if (response.getCode() == 200 && ClientServer.BODY.equals(response.getBodyText())) {
                ok.incrementAndGet();
            }
            done.countDown();
        }

        @Override
        public void failed(Exception e) {
            failed.incrementAndGet();
            done.countDown();
        }

        @Override
        public void cancelled() {
            done.countDown();
        }

        void await() throws InterruptedException {
            if (!done.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no completion");
            }
        }
    }
}
