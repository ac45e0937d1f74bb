package io.hopscope.samples.openloop;

import io.hopscope.samples.common.CallerThreads;
import io.hopscope.samples.common.Options;
import io.hopscope.samples.common.ResponseCheckException;
import io.hopscope.samples.common.ServerOptions;
import io.hopscope.samples.common.Target;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * {@code open-loop}: the sync-over-async thread-explosion study. Requests go out at a fixed rate
 * whether or not earlier ones have completed; against a slow server, an async client holds them as
 * connections, while sync-over-async and a synchronous client hold each one on a blocked platform
 * thread, and a synchronous client on virtual threads on a blocked virtual thread, which is no
 * platform thread while it waits for the socket.
 */
@Command(name = "open-loop", mixinStandardHelpOptions = true,
        description = {"Fixed --rps regardless of completions against a --delay-ms server; once a second one "
                + "line: total requests, total responses, outstanding, requests/s, responses/s, mean latency "
                + "of that second's responses, live platform threads (virtual threads are not counted). "
                + "Modes: async (reactor-netty, no blocking), sync-over-async (a new thread per request "
                + "blocks on the reactive client), okhttp-sync (a new thread per request calls OkHttp's "
                + "Call.execute), virtual-sync (the same on a new virtual thread per request; JDK 21+).",
                "Example: open-loop --rps 300 --duration 10 --mode sync-over-async"})
public final class OpenLoopCommand implements Callable<Integer> {

    /** Issuer tick: requests due in each tick go out together. */
    private static final long TICK_MS = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--mode", defaultValue = "sync-over-async", description = "async, sync-over-async, okhttp-sync or virtual-sync (default ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--rps", defaultValue = "100", description = "Requests issued per second (default ${DEFAULT-VALUE}).")
    int rps;

    @Option(names = "--duration", defaultValue = "10", description = "Seconds to run, one line each (default ${DEFAULT-VALUE}).")
    int durationS;

    // A slow server by default: the study is about what holds a request while it waits.
    @Mixin
    ServerOptions server = new ServerOptions(5000);

    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong responses = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong requestsThisSecond = new AtomicLong();
    private final AtomicLong responsesThisSecond = new AtomicLong();
    private final AtomicLong latencyNanosThisSecond = new AtomicLong();
    private final AtomicReference<String> firstFailure = new AtomicReference<>();
    private final AtomicReference<Thread> firstRequestThread = new AtomicReference<>();
    private volatile boolean finished;

    @Override
    public Integer call() throws Exception {
        Options.oneOf(spec, "--mode", mode, "async", "sync-over-async", "okhttp-sync", "virtual-sync");
        Options.atLeast(spec, "--rps", rps, 1);
        Options.atLeast(spec, "--duration", durationS, 1);
        server.check(spec);
        if ("virtual-sync".equals(mode)) {
            CallerThreads.checkVirtualAvailable(spec, "--mode virtual-sync");
        }

        // Enough connections for every request that can be outstanding, so the pool never queues:
        // the study is about threads, not about a pool limit.
        int maxConnections = (int) Math.min(50_000, Math.max(500, rps * (server.delayMs / 1000 + 5)));
        ConnectionProvider provider = ConnectionProvider.builder("open-loop")
                .maxConnections(maxConnections)
                .pendingAcquireMaxCount(-1)
                .build();
        HttpClient reactive = HttpClient.create(provider);
        // Call.execute runs on the calling thread: the dispatcher's limits (64 requests, 5 a host) only
        // hold enqueued calls, so neither sync mode is capped by them. The connection pool keeps idle
        // connections (5 by default) for reuse; it limits nothing that is in use.
        OkHttpClient okhttp = new OkHttpClient.Builder()
                .readTimeout(Duration.ofMillis(server.delayMs + 30_000))
                .build();
        ThreadFactory requestThreads = "virtual-sync".equals(mode)
                ? CallerThreads.virtual("open-loop-virtual-")
                : CallerThreads.platform("open-loop-blocked-");
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "open-loop-timer");
            t.setDaemon(true);
            return t;
        });
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CountDownLatch done = new CountDownLatch(1);
        long req;
        long rsp;
        long failed;
        try (Target target = server.open(spec)) {
            String requestUri = target.requestUri(false, server.responseBytes, server.delayMs).toString();
            warmUp(reactive, okhttp, target.requestUri(false, server.responseBytes, 0).toString());
            System.out.printf("# open-loop mode=%s rps=%d duration_s=%d delay_ms=%d target=%s%n",
                    mode, rps, durationS, server.delayMs, target.base());
            long startNanos = System.nanoTime();
            AtomicLong issued = new AtomicLong();
            timers.scheduleAtFixedRate(() -> {
                long due = (System.nanoTime() - startNanos) * rps / 1_000_000_000L;
                while (issued.get() < due && !finished) {
                    issued.incrementAndGet();
                    issue(reactive, okhttp, requestThreads, requestUri);
                }
            }, 0, TICK_MS, TimeUnit.MILLISECONDS);
            AtomicInteger second = new AtomicInteger();
            long[] totals = new long[3];
            timers.scheduleAtFixedRate(() -> {
                int s = second.incrementAndGet();
                if (s > durationS) {
                    return;
                }
                if (s == durationS) {
                    // Freeze the totals with the last line: nothing issued or answered after it counts.
                    finished = true;
                }
                long rspThisSecond = responsesThisSecond.getAndSet(0);
                long latNanos = latencyNanosThisSecond.getAndSet(0);
                long sent = requests.get();
                long received = responses.get();
                totals[0] = sent;
                totals[1] = received;
                totals[2] = failures.get();
                System.out.printf("second=%d requests=%d responses=%d outstanding=%d requests_per_s=%d "
                                + "responses_per_s=%d mean_latency_ms=%s threads=%d%n",
                        s, sent, received, sent - received - totals[2], requestsThisSecond.getAndSet(0), rspThisSecond,
                        rspThisSecond == 0 ? "-" : String.format("%.1f", latNanos / 1e6 / rspThisSecond),
                        threads.getThreadCount());
                System.out.flush();
                if (s == durationS) {
                    done.countDown();
                }
            }, 1000, 1000, TimeUnit.MILLISECONDS);
            // Bounded even if the timers starve: the run never outlives its duration by much.
            done.await(durationS + 30L, TimeUnit.SECONDS);
            done.countDown();
            // From here on the server and the clients shut down under the outstanding requests;
            // what they see then is the end of the run, not a bad response.
            finished = true;
            // The latch orders these reads after the last line's writes.
            req = totals[0];
            rsp = totals[1];
            failed = totals[2];
        } finally {
            timers.shutdownNow();
            provider.dispose();
            okhttp.dispatcher().executorService().shutdownNow();
            okhttp.connectionPool().evictAll();
        }
        Thread first = firstRequestThread.get();
        if (first != null) {
            // Which thread a blocking mode's first request ran on, and what kind it really was.
            System.out.printf("# first request thread=%s kind=%s%n", first.getName(), CallerThreads.kindOf(first));
        }
        System.out.printf("# done requests=%d responses=%d failed=%d outstanding=%d%n", req, rsp, failed,
                req - rsp - failed);
        if (failed > 0) {
            throw new ResponseCheckException(failed + " of " + req + " requests failed; first: " + firstFailure.get());
        }
        return 0;
    }

    private void issue(HttpClient reactive, OkHttpClient okhttp, ThreadFactory requestThreads, String requestUri) {
        requests.incrementAndGet();
        requestsThisSecond.incrementAndGet();
        long start = System.nanoTime();
        switch (mode) {
            case "async":
                exchange(reactive, requestUri).subscribe(
                        length -> completed(start, length),
                        error -> failed(error.toString()));
                break;
            case "sync-over-async":
                // A new thread parks in block() per request: the thread explosion of the study.
                startBlockedThread(requestThreads, () -> {
                    Integer length = exchange(reactive, requestUri).block();
                    completed(start, length == null ? -1 : length);
                });
                break;
            default:
                // okhttp-sync: a new platform thread per request; virtual-sync: a new virtual one.
                startBlockedThread(requestThreads, () -> {
                    try (Response response = okhttp.newCall(new Request.Builder().url(requestUri).build()).execute()) {
                        ResponseBody body = response.body();
                        int length = body == null ? 0 : body.bytes().length;
                        Target.validate(response.code(), length, server.responseBytes);
                        completed(start, length);
                    } catch (java.io.IOException e) {
                        throw new ResponseCheckException("request failed: " + e, e);
                    }
                });
        }
    }

    /**
     * One undelayed, uncounted request before the clock starts: loading and initialising the client
     * on the issuer thread would otherwise stall the first second's requests.
     */
    private void warmUp(HttpClient reactive, OkHttpClient okhttp, String requestUri) {
        try {
            if ("okhttp-sync".equals(mode) || "virtual-sync".equals(mode)) {
                try (Response response = okhttp.newCall(new Request.Builder().url(requestUri).build()).execute()) {
                    ResponseBody body = response.body();
                    Target.validate(response.code(), body == null ? 0 : body.bytes().length, server.responseBytes);
                }
            } else {
                exchange(reactive, requestUri).block(Duration.ofSeconds(30));
            }
        } catch (ResponseCheckException e) {
            throw e;
        } catch (java.io.IOException | RuntimeException e) {
            throw new ResponseCheckException("warm-up request failed: " + e, e);
        }
    }

    private Mono<Integer> exchange(HttpClient reactive, String requestUri) {
        return reactive.get().uri(requestUri).responseSingle((response, body) -> body.asByteArray()
                .defaultIfEmpty(new byte[0])
                .map(bytes -> {
                    Target.validate(response.status().code(), bytes.length, server.responseBytes);
                    return bytes.length;
                }));
    }

    /** Daemon threads (virtual ones always are): threads still blocked when the run ends must not keep the JVM alive. */
    private void startBlockedThread(ThreadFactory requestThreads, Runnable request) {
        requestThreads.newThread(() -> {
            firstRequestThread.compareAndSet(null, Thread.currentThread());
            try {
                request.run();
            } catch (RuntimeException e) {
                failed(e.getMessage());
            }
        }).start();
    }

    private void completed(long startNanos, int length) {
        if (finished) {
            return;
        }
        if (length != server.responseBytes) {
            failed("response body " + length + " bytes, expected " + server.responseBytes);
            return;
        }
        latencyNanosThisSecond.addAndGet(System.nanoTime() - startNanos);
        responsesThisSecond.incrementAndGet();
        responses.incrementAndGet();
    }

    private void failed(String message) {
        if (finished) {
            return;
        }
        failures.incrementAndGet();
        firstFailure.compareAndSet(null, message);
    }
}
