package io.hopscope.samples.jdkhttp;

import io.hopscope.samples.common.CallerThreads;
import io.hopscope.samples.common.ClosedLoopOptions;
import io.hopscope.samples.common.Options;
import io.hopscope.samples.common.ResponseCheckException;
import io.hopscope.samples.common.RunFigures;
import io.hopscope.samples.common.Target;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jdk-http}: the async-HTTP-client study, {@code java.net.http.HttpClient} with its own executor. */
@Command(name = "jdk-http", mixinStandardHelpOptions = true,
        description = {"java.net.http.HttpClient on an executor of --io-threads; --producers threads each "
                + "keep --in-flight requests outstanding with sendAsync (or call send in --mode sync, on "
                + "platform or virtual --callers); prints ops/s, latency percentiles, allocation, GC and threads.",
                "Example: jdk-http --io-threads 2 --producers 2 --in-flight 16 --duration 5",
                "Example: jdk-http --mode sync --callers virtual --producers 32 --duration 5 (JDK 21+)"})
public final class JdkHttpCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--mode", defaultValue = "async", description = "async (sendAsync) or sync (send); default ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--io-threads", defaultValue = "2", description = "Threads of the client's executor (default ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--producers", defaultValue = "1", description = "Producer threads (default ${DEFAULT-VALUE}).")
    int producers;

    @Option(names = "--in-flight", defaultValue = "16", description = "Outstanding requests per producer in async mode (default ${DEFAULT-VALUE}).")
    int inFlight;

    @Mixin
    ClosedLoopOptions loop;

    @Override
    public Integer call() throws Exception {
        Options.oneOf(spec, "--mode", mode, "async", "sync");
        Options.atLeast(spec, "--io-threads", ioThreads, 1);
        Options.atLeast(spec, "--producers", producers, 1);
        Options.atLeast(spec, "--in-flight", inFlight, 1);
        // An async producer never blocks, so a virtual one would only be a platform thread's stand-in.
        Options.check(spec, "sync".equals(mode) || !CallerThreads.VIRTUAL.equals(loop.callers),
                "--callers virtual needs --mode sync (an async producer does not block), got --mode " + mode);
        loop.check(spec);
        // Its modes run their own loops, not ClosedLoop, which measures the first window.
        Options.check(spec, loop.firstWindowS == 0, "--first-window is measured by pipeline only");

        boolean async = "async".equals(mode);
        AtomicInteger ioIndex = new AtomicInteger();
        ExecutorService io = Executors.newFixedThreadPool(ioThreads, r -> {
            Thread t = new Thread(r, "jdk-http-io-" + ioIndex.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        HttpClient client = HttpClient.newBuilder()
                .executor(io)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        byte[] payload = new byte[loop.uploadBytes];
        RunFigures figures = new RunFigures();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong tickets = new AtomicLong();
        long measuredCount = loop.measuredCount();
        try (Target target = loop.server.open(spec)) {
            HttpRequest request = request(target.requestUri(loop.uploadBytes > 0, loop.server.responseBytes, loop.server.delayMs), payload);
            if (loop.warmupS <= 0) {
                figures.startMeasuring();
            }
            List<Thread> threads = new ArrayList<>();
            ThreadFactory producerThreads = loop.callerThreads("jdk-http-producer-");
            for (int p = 1; p <= producers; p++) {
                Thread t = producerThreads.newThread(() -> {
                    figures.callerStarted(Thread.currentThread());
                    try {
                        if (async) {
                            produceAsync(client, request, figures, failure, tickets, measuredCount);
                        } else {
                            produceSync(client, request, figures, failure, tickets, measuredCount);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads.add(t);
                t.start();
            }
            if (loop.warmupS > 0) {
                sleep(loop.warmupS, failure);
                figures.startMeasuring();
            }
            if (measuredCount == 0) {
                sleep(loop.measuredSeconds(), failure);
                figures.stopMeasuring();
                failure.compareAndSet(null, Stop.INSTANCE);
            }
            for (Thread t : threads) {
                t.join();
            }
            figures.stopMeasuring();
        } finally {
            io.shutdownNow();
            io.awaitTermination(2, TimeUnit.SECONDS);
        }
        Throwable t = failure.get() == Stop.INSTANCE ? null : failure.get();
        if (t instanceof ResponseCheckException) {
            throw (ResponseCheckException) t;
        } else if (t instanceof Exception) {
            throw (Exception) t;
        } else if (t instanceof Error) {
            throw (Error) t;
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scenario", "jdk-http");
        settings.put("mode", mode);
        settings.put("io_threads", ioThreads);
        settings.put("producers", producers);
        settings.put("in_flight", async ? inFlight : 1);
        loop.putSettings(settings);
        figures.print(System.out, settings);
        return 0;
    }

    private HttpRequest request(URI target, byte[] payload) {
        HttpRequest.Builder b = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(60 + loop.server.delayMs / 1000));
        return payload.length > 0
                ? b.POST(HttpRequest.BodyPublishers.ofByteArray(payload)).build()
                : b.GET().build();
    }

    /** Keeps {@code inFlight} requests outstanding: each completion frees a permit for the next send. */
    private void produceAsync(HttpClient client, HttpRequest request, RunFigures figures,
                              AtomicReference<Throwable> failure, AtomicLong tickets, long measuredCount)
            throws InterruptedException {
        Semaphore permits = new Semaphore(inFlight);
        while (failure.get() == null) {
            if (!permits.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                continue;
            }
            if (failure.get() != null
                    || (measuredCount > 0 && figures.measuring() && tickets.incrementAndGet() > measuredCount)) {
                permits.release();
                break;
            }
            boolean measured = figures.measuring();
            long start = System.nanoTime();
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                try {
                    if (error != null) {
                        throw new ResponseCheckException("request failed: " + error, error);
                    }
                    check(response);
                    if (measured) {
                        figures.record(System.nanoTime() - start);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    permits.release();
                }
            });
        }
        // Wait for this producer's outstanding requests, so the count is complete when we report.
        permits.tryAcquire(inFlight, 30 + loop.server.delayMs / 1000, TimeUnit.SECONDS);
    }

    private void produceSync(HttpClient client, HttpRequest request, RunFigures figures,
                             AtomicReference<Throwable> failure, AtomicLong tickets, long measuredCount)
            throws Exception {
        while (failure.get() == null) {
            if (measuredCount > 0 && figures.measuring() && tickets.incrementAndGet() > measuredCount) {
                return;
            }
            boolean measured = figures.measuring();
            long start = System.nanoTime();
            HttpResponse<byte[]> response;
            try {
                response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (java.io.IOException e) {
                throw new ResponseCheckException("request failed: " + e, e);
            }
            check(response);
            if (measured) {
                figures.record(System.nanoTime() - start);
            }
        }
    }

    private void check(HttpResponse<byte[]> response) {
        Target.validate(response.statusCode(), response.body().length, loop.server.responseBytes);
        if (loop.uploadBytes > 0) {
            String received = response.headers().firstValue("X-Received-Bytes").orElse(null);
            if (!Integer.toString(loop.uploadBytes).equals(received)) {
                throw new ResponseCheckException("server received " + received + " upload bytes, sent " + loop.uploadBytes);
            }
        }
    }

    private static void sleep(double seconds, AtomicReference<Throwable> failure) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long left;
        while (failure.get() == null && (left = deadline - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(50, Math.max(1, left / 1_000_000)));
        }
    }

    /** Not a failure: tells the producers that the measured window is over. */
    private static final class Stop extends RuntimeException {
        static final Stop INSTANCE = new Stop();

        private Stop() {
            super("stop", null, false, false);
        }
    }
}
