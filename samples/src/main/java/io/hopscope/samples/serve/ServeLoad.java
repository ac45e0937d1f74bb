package io.hopscope.samples.serve;

import io.hopscope.samples.server.SampleServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.HdrHistogram.Histogram;

/**
 * The world outside the service of {@code serve}, in a JVM of its own: the backend (the samples'
 * {@link SampleServer}) and the open-loop load, so that the service's JVM, and a recording of it,
 * holds the service's inbound requests and nothing else.
 *
 * <p>Requests are due at exponential intervals of mean 1 / rate (a Poisson process, as seed 001's
 * load generator sends them) and go out when due whatever is still pending, over at most
 * {@code --connections} keep-alive connections (OkHttp's dispatcher holds a request that finds them
 * all busy). Each carries a {@code traceparent} with a fresh random trace id; latency runs from when
 * the request was due, so that neither the service's queue nor the client's wait for a connection is
 * hidden.
 *
 * <p>It talks to {@code serve} over its stdin and stdout: it prints {@code backend: URL}, waits for
 * {@code go}, prints {@code # measuring} when the first measured request is due and {@code # measured}
 * when the last measured one has been answered, then its figures ({@code key: value}) and {@code # done}.
 */
public final class ServeLoad {

    static final String BACKEND = "backend: ";
    static final String GO = "go";
    static final String MEASURING = "# measuring";
    static final String MEASURED = "# measured";
    static final String DONE = "# done";
    /** Exit code of a load that could not run (the service went away, an internal error). */
    static final int EXIT_FAILED = 3;

    /** How long after the last request was due the load waits for its response. */
    private static final long ANSWER_GRACE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final byte PENDING = 0;
    private static final byte OK = 1;
    private static final byte FAILED = 2;

    private final String target;
    private final double rate;
    private final double warmupS;
    private final double durationS;
    private final long count;
    private final int connections;
    private final long backendDelayMs;
    private final int backendBytes;
    private final Path requestsFile;
    private final PrintStream out;

    // One slot a request, written by the thread that issues or answers it; read after the latches.
    private long[] due;
    private long[] sent;
    private long[] issued;
    private long[] answered;
    private long[] handlerNanos;
    private int[] status;
    private byte[] outcome;
    private long[] traceHigh;
    private long[] traceLow;
    private int firstMeasured;
    private CountDownLatch warmupLeft;
    private CountDownLatch measuredLeft;
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final AtomicInteger connectionsOpened = new AtomicInteger();
    private String firstTraceId;
    private String firstOutcome;

    private ServeLoad(Map<String, String> options, PrintStream out) {
        this.target = options.get("--target");
        this.rate = Double.parseDouble(options.get("--rate"));
        this.warmupS = Double.parseDouble(options.get("--warmup"));
        this.durationS = Double.parseDouble(options.getOrDefault("--duration", "0"));
        this.count = Long.parseLong(options.getOrDefault("--count", "0"));
        this.connections = Integer.parseInt(options.get("--connections"));
        this.backendDelayMs = Long.parseLong(options.get("--backend-delay-ms"));
        this.backendBytes = Integer.parseInt(options.get("--backend-bytes"));
        this.requestsFile = options.containsKey("--requests-file") ? Path.of(options.get("--requests-file")) : null;
        this.out = out;
    }

    public static void main(String[] args) {
        // Jetty logs through SLF4J; without a provider SLF4J prints warning lines on every start.
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        // The service closes its end of stdin when it ends, however it ends: this JVM ends with it.
        int code = run(args, new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                new PrintStream(System.out, true, StandardCharsets.UTF_8), () -> System.exit(EXIT_FAILED));
        // OkHttp's and Jetty's threads are done with; end the JVM.
        System.exit(code);
    }

    /**
     * One run, {@code main}'s without the exit: 0, or {@link #EXIT_FAILED} with what went wrong on stderr.
     * {@code serviceGone} runs if {@code in} ends before the run does.
     */
    static int run(String[] args, BufferedReader in, PrintStream out, Runnable serviceGone) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        try {
            return new ServeLoad(options, out).run(in, serviceGone);
        } catch (Exception e) {
            e.printStackTrace();
            return EXIT_FAILED;
        }
    }

    private int run(BufferedReader in, Runnable serviceGone) throws Exception {
        try (SampleServer backend = SampleServer.start(0, backendDelayMs, backendBytes)) {
            out.println(BACKEND + backend.baseUri() + "/backend");
            if (!GO.equals(in.readLine())) {
                System.err.println("serve-load: the service did not say go");
                return EXIT_FAILED;
            }
            Thread watch = new Thread(() -> {
                try {
                    while (in.readLine() != null) {
                        // Nothing more is said after go.
                    }
                } catch (IOException e) {
                    // The pipe broke: the service is gone as well.
                }
                serviceGone.run();
            }, "serve-load-service-watch");
            watch.setDaemon(true);
            watch.start();
            OkHttpClient client = client();
            try {
                first(client);
                schedule();
                issueAll(client);
            } finally {
                client.dispatcher().executorService().shutdownNow();
                client.connectionPool().evictAll();
            }
        }
        return 0;
    }

    private OkHttpClient client() {
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequests(connections);
        dispatcher.setMaxRequestsPerHost(connections);
        return new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(connections, 5, TimeUnit.MINUTES))
                .protocols(List.of(Protocol.HTTP_1_1))
                // Open loop: a failed request is counted, never silently sent again.
                .retryOnConnectionFailure(false)
                .readTimeout(Duration.ofMillis(backendDelayMs + 60_000))
                .addInterceptor(chain -> {
                    // Runs when the dispatcher starts the call, on the thread that sends it: the request
                    // leaves the client's queue now.
                    Integer index = chain.request().tag(Integer.class);
                    if (index != null) {
                        sent[index] = System.nanoTime();
                    }
                    return chain.proceed(chain.request());
                })
                .eventListener(new EventListener() {
                    @Override
                    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
                        connectionsOpened.incrementAndGet();
                    }
                })
                .build();
    }

    /**
     * One request before the clock starts, answered before any other is sent, marked warm-up so the
     * service leaves it out of its figures: loading and initialising the client, the service's
     * handler and its backend client on the first due requests would otherwise stall them.
     */
    private void first(OkHttpClient client) throws IOException {
        SplittableRandom random = new SplittableRandom();
        String traceId = hex(random.nextLong() | 1, random.nextLong());
        firstTraceId = traceId;
        firstOutcome = "ok";
        Request request = new Request.Builder().url(target).header("traceparent", traceparent(traceId, 1))
                .header(Service.WARMUP_HEADER, "1").build();
        try (Response response = client.newCall(request).execute()) {
            String problem = problem(response.code(), response.body() == null ? "" : response.body().string(),
                    response.header(Service.HANDLER_NANOS_HEADER), traceId);
            if (problem != null) {
                firstOutcome = "failed";
                firstError.set("the first request (trace " + traceId + "): " + problem);
            }
        } catch (IOException e) {
            firstOutcome = "failed";
            firstError.set("the first request (trace " + traceId + ") failed: " + e);
        }
    }

    /** Every request's due time (ns from the start) and trace id; the warm-up's first, then the measured ones. */
    private void schedule() {
        SplittableRandom random = new SplittableRandom();
        long warmupNanos = (long) (warmupS * 1e9);
        long endNanos = warmupNanos + (long) (durationS * 1e9);
        long[] times = new long[1024];
        int n = 0;
        int measured = -1;
        double t = 0;
        while (true) {
            // Exponential intervals: -ln(1 - U) / rate seconds.
            t += -Math.log(1 - random.nextDouble()) / rate * 1e9;
            long at = (long) t;
            if (measured < 0 && at >= warmupNanos) {
                measured = n;
            }
            if (measured >= 0 && (count > 0 ? n - measured >= count : at >= endNanos)) {
                break;
            }
            if (n == times.length) {
                times = Arrays.copyOf(times, n * 2);
            }
            times[n++] = at;
        }
        if (measured == n) {
            // A window so short that no arrival fell in it still measures one request.
            times = Arrays.copyOf(times, n + 1);
            times[n++] = warmupNanos;
        }
        due = Arrays.copyOf(times, n);
        firstMeasured = measured;
        sent = new long[n];
        issued = new long[n];
        answered = new long[n];
        handlerNanos = new long[n];
        status = new int[n];
        outcome = new byte[n];
        traceHigh = new long[n];
        traceLow = new long[n];
        for (int i = 0; i < n; i++) {
            traceHigh[i] = random.nextLong() | 1;
            traceLow[i] = random.nextLong();
        }
        warmupLeft = new CountDownLatch(firstMeasured);
        measuredLeft = new CountDownLatch(n - firstMeasured);
    }

    private void issueAll(OkHttpClient client) throws Exception {
        long start = System.nanoTime() + 10_000_000;
        for (int i = 0; i < due.length; i++) {
            long at = start + due[i];
            long wait;
            while ((wait = at - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            if (i == firstMeasured) {
                out.println(MEASURING);
            }
            due[i] = at;
            issue(client, i);
        }
        // due[] holds each request's absolute due time from here on.
        long deadline = due[due.length - 1] + ANSWER_GRACE_NANOS;
        boolean allAnswered = measuredLeft.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        out.println(MEASURED);
        warmupLeft.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        printFigures(allAnswered);
        if (requestsFile != null) {
            writeRequests(start);
        }
        out.println(DONE);
    }

    private void issue(OkHttpClient client, int i) {
        String traceId = hex(traceHigh[i], traceLow[i]);
        Request.Builder b = new Request.Builder().url(target).header("traceparent", traceparent(traceId, traceLow[i] ^ i))
                .tag(Integer.class, i);
        if (i < firstMeasured) {
            b.header(Service.WARMUP_HEADER, "1");
        }
        issued[i] = System.nanoTime();
        client.newCall(b.build()).enqueue(new Callback() {
            @Override
            public void onResponse(Call call, Response response) {
                try (response) {
                    String body = response.body() == null ? "" : response.body().string();
                    answered[i] = System.nanoTime();
                    status[i] = response.code();
                    String handler = response.header(Service.HANDLER_NANOS_HEADER);
                    String problem = problem(response.code(), body, handler, traceId);
                    if (problem == null) {
                        handlerNanos[i] = Long.parseLong(handler);
                        outcome[i] = OK;
                    } else {
                        failed(i, problem);
                    }
                } catch (IOException | RuntimeException e) {
                    failed(i, "reading the response failed: " + e);
                } finally {
                    done(i);
                }
            }

            @Override
            public void onFailure(Call call, IOException e) {
                answered[i] = System.nanoTime();
                failed(i, "request failed: " + e);
                done(i);
            }
        });
    }

    /** What is wrong with a response, or null when it is the one this request asked for. */
    private String problem(int code, String body, String handlerNanosHeader, String traceId) {
        if (code != 200) {
            return "response status " + code + ", expected 200: " + body.strip();
        }
        String expected = "ok " + traceId + " backend=" + backendBytes + " work=";
        if (!body.startsWith(expected) || !body.endsWith("\n")) {
            return "response body '" + body.strip() + "', expected '" + expected + "...'";
        }
        try {
            if (handlerNanosHeader == null || Long.parseLong(handlerNanosHeader) < 0) {
                return "no " + Service.HANDLER_NANOS_HEADER + " header";
            }
        } catch (NumberFormatException e) {
            return Service.HANDLER_NANOS_HEADER + " is not a number: " + handlerNanosHeader;
        }
        return null;
    }

    private void failed(int i, String message) {
        outcome[i] = FAILED;
        firstError.compareAndSet(null, (i < firstMeasured ? "warm-up request " : "request ") + i + " (trace "
                + hex(traceHigh[i], traceLow[i]) + "): " + message);
    }

    private void done(int i) {
        (i < firstMeasured ? warmupLeft : measuredLeft).countDown();
    }

    private void printFigures(boolean allAnswered) {
        Histogram latency = new Histogram(3);
        Histogram connectionWait = new Histogram(3);
        Histogram outsideHandler = new Histogram(3);
        Histogram late = new Histogram(3);
        long ok = 0;
        long errors = 0;
        long unanswered = 0;
        for (int i = firstMeasured; i < due.length; i++) {
            late.recordValue(Math.max(0, issued[i] - due[i]));
            if (outcome[i] == OK) {
                ok++;
                latency.recordValue(Math.max(0, answered[i] - due[i]));
                connectionWait.recordValue(Math.max(0, sent[i] - due[i]));
                outsideHandler.recordValue(Math.max(0, answered[i] - sent[i] - handlerNanos[i]));
            } else {
                errors++;
                if (outcome[i] == PENDING) {
                    unanswered++;
                }
            }
        }
        if (unanswered > 0) {
            firstError.compareAndSet(null, unanswered + " request(s) had no response "
                    + TimeUnit.NANOSECONDS.toSeconds(ANSWER_GRACE_NANOS) + " s after the last was due");
        }
        if (!allAnswered && firstError.get() == null) {
            firstError.set("requests still pending at the end");
        }
        out.println("client_sent: " + (due.length - firstMeasured));
        out.println("client_ok: " + ok);
        out.println("client_errors: " + errors);
        percentiles("client_latency", latency, true);
        out.printf(Locale.ROOT, "client_connection_wait_p99_us: %.1f%n", latency.getTotalCount() == 0 ? 0.0
                : connectionWait.getValueAtPercentile(99) / 1e3);
        out.printf(Locale.ROOT, "client_outside_handler_p50_us: %.1f%n", outsideHandler.getValueAtPercentile(50) / 1e3);
        out.printf(Locale.ROOT, "client_outside_handler_p99_us: %.1f%n", outsideHandler.getValueAtPercentile(99) / 1e3);
        out.printf(Locale.ROOT, "client_issued_late_max_us: %.1f%n", late.getMaxValue() / 1e3);
        out.println("client_connections_opened: " + connectionsOpened.get());
        if (firstError.get() != null) {
            out.println("client_first_error: " + firstError.get().replace('\n', ' '));
        }
    }

    private void percentiles(String name, Histogram h, boolean withP90AndMax) {
        out.printf(Locale.ROOT, "%s_p50_us: %.1f%n", name, h.getValueAtPercentile(50) / 1e3);
        if (withP90AndMax) {
            out.printf(Locale.ROOT, "%s_p90_us: %.1f%n", name, h.getValueAtPercentile(90) / 1e3);
        }
        out.printf(Locale.ROOT, "%s_p99_us: %.1f%n", name, h.getValueAtPercentile(99) / 1e3);
        if (withP90AndMax) {
            out.printf(Locale.ROOT, "%s_max_us: %.1f%n", name, h.getMaxValue() / 1e3);
        }
    }

    /** One line a request, times in us from the schedule's start: what a test looks a recorded request up by. */
    private void writeRequests(long start) throws IOException {
        try (Writer w = Files.newBufferedWriter(requestsFile); PrintWriter p = new PrintWriter(w)) {
            p.println("trace_id\tphase\tdue_us\tsent_us\tanswered_us\thandler_us\tstatus\toutcome");
            // The request before the clock started: sent and answered before every other.
            p.printf("%s\tfirst\t-\t-\t-\t-\t-\t%s%n", firstTraceId, firstOutcome);
            for (int i = 0; i < due.length; i++) {
                p.printf(Locale.ROOT, "%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s%n", hex(traceHigh[i], traceLow[i]),
                        i < firstMeasured ? "warmup" : "measured", (due[i] - start) / 1000,
                        sent[i] == 0 ? "-" : Long.toString((sent[i] - start) / 1000),
                        answered[i] == 0 ? "-" : Long.toString((answered[i] - start) / 1000),
                        outcome[i] == OK ? Long.toString(handlerNanos[i] / 1000) : "-", status[i],
                        outcome[i] == OK ? "ok" : outcome[i] == FAILED ? "failed" : "no-response");
            }
        }
    }

    private static String traceparent(String traceId, long parentId) {
        return "00-" + traceId + "-" + HexFormat.of().toHexDigits(parentId == 0 ? 1 : parentId) + "-01";
    }

    private static String hex(long high, long low) {
        return HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }
}
