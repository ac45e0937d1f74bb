package io.hopscope.analyzer.export;

import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What {@code live} sends to one endpoint (an OpenTelemetry Collector, a Pyroscope server): sent oldest
 * first by a thread of its own, and kept while the endpoint is away, since a Collector's restart or
 * rollout is weather, not an error. Per signal at most {@code capacity} batches are kept; when one more
 * comes, the oldest not being sent is dropped and counted ({@link #dropped}). A try that fails is made
 * again after a backoff that doubles from {@link #FIRST_BACKOFF_NANOS} to {@link #MAX_BACKOFF_NANOS}, each
 * wait drawn between half and all of it from a generator the caller seeds (jitter: a fleet's sidecars do
 * not all come back in the same second), or what the endpoint's Retry-After asks. An outage is one line
 * on stderr when it begins and one when it ends, however many tries it takes. A refusal that would be
 * repeated (a 4xx other than 408 and 429: credentials, a wrong path) ends the outbox: {@code onRefused}
 * is told the one line, and nothing more is sent. No line quotes a header's value ({@link Endpoint}).
 */
public final class Outbox implements AutoCloseable {

    static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** What a batch carries; its name is the {@code signal} attribute of {@code hopscope.export.dropped}. */
    public enum Signal {
        profiles("profile window"),
        metrics("metrics export");

        private final String one;

        Signal(String one) {
            this.one = one;
        }

        /** "1 profile window", "3 metrics exports". */
        String count(long n) {
            return n + " " + one + (n == 1 ? "" : "s");
        }
    }

    /**
     * One POST: its body to {@code uri} with {@code headers} (each signal may have its own); {@code
     * answerProblem} reads a 2xx answer's body and says in a line what it rejected of the batch, or null
     * (OTLP's partial success).
     */
    public record Batch(Signal signal, URI uri, byte[] body, String contentType, Headers headers,
                        Function<byte[], String> answerProblem) {
    }

    private final String endpoint;
    private final Map<Signal, Integer> capacity;
    private final Random jitter;
    private final PrintWriter err;
    private final Consumer<String> onRefused;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Batch> queue = new ArrayDeque<>();
    private final Map<Signal, Long> dropped = new EnumMap<>(Signal.class);
    private final Map<Signal, Long> droppedInOutage = new EnumMap<>(Signal.class);
    private final Map<Signal, Long> sent = new EnumMap<>(Signal.class);
    private final Thread sender;
    private Batch inFlight;
    private boolean outage;
    private long outageStartNanos;
    private int tries;
    private boolean refused;
    private boolean closed;
    private long drainDeadlineNanos;

    /**
     * An outbox for {@code endpoint} (its scheme and authority, as its lines name it) keeping at most
     * {@code capacity} batches of each signal it carries (its keys), started at once.
     */
    public Outbox(String endpoint, Map<Signal, Integer> capacity, Random jitter, PrintWriter err,
                  Consumer<String> onRefused) {
        this.endpoint = endpoint;
        this.capacity = new EnumMap<>(capacity);
        this.jitter = jitter;
        this.err = err;
        this.onRefused = onRefused;
        for (Signal s : Signal.values()) {
            dropped.put(s, 0L);
            droppedInOutage.put(s, 0L);
            sent.put(s, 0L);
        }
        sender = new Thread(this::send, "hopscope-outbox " + endpoint);
        sender.setDaemon(true);
        sender.start();
    }

    /** The scheme and authority of {@code uri}, the name an outbox has in its lines. */
    public static String endpointOf(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }

    /** Queues a batch (of a signal this outbox carries), dropping the oldest of its signal when that is over capacity. */
    public void offer(Batch batch) {
        lock.lock();
        try {
            if (closed || refused) {
                return;
            }
            queue.addLast(batch);
            trim(batch.signal());
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Batches of {@code signal} dropped so far. */
    public long dropped(Signal signal) {
        lock.lock();
        try {
            return dropped.get(signal);
        } finally {
            lock.unlock();
        }
    }

    /** Batches of {@code signal} the endpoint took so far. */
    public long sent(Signal signal) {
        lock.lock();
        try {
            return sent.get(signal);
        } finally {
            lock.unlock();
        }
    }

    /** Whether the endpoint refused for good (its line went to {@code onRefused}). */
    public boolean refused() {
        lock.lock();
        try {
            return refused;
        } finally {
            lock.unlock();
        }
    }

    // Over capacity, the oldest of the signal go. One on its way is not taken from under its try: the
    // batches stay one over until the try fails (then it goes) or succeeds (then it was sent).
    private void trim(Signal signal) {
        int limit = capacity.getOrDefault(signal, 0);
        int count = 0;
        for (Batch b : queue) {
            if (b.signal() == signal) {
                count++;
            }
        }
        for (Iterator<Batch> it = queue.iterator(); count > limit && it.hasNext(); ) {
            Batch b = it.next();
            if (b.signal() != signal) {
                continue;
            }
            if (b == inFlight) {
                return;
            }
            it.remove();
            count--;
            dropped.merge(signal, 1L, Long::sum);
            droppedInOutage.merge(signal, 1L, Long::sum);
        }
    }

    private void send() {
        while (true) {
            Batch batch;
            lock.lock();
            try {
                while (queue.isEmpty() && !closed) {
                    changed.awaitUninterruptibly();
                }
                if (queue.isEmpty() || refused || closed && System.nanoTime() - drainDeadlineNanos > 0) {
                    return;
                }
                batch = queue.peekFirst();
                inFlight = batch;
            } finally {
                lock.unlock();
            }
            byte[] answer = null;
            Endpoint.EndpointProblem problem = null;
            try {
                answer = Endpoint.post(batch.uri(), batch.body(), batch.contentType(), null, batch.headers());
            } catch (Endpoint.EndpointProblem e) {
                problem = e;
            }
            List<String> lines = new ArrayList<>();
            String refusal = null;
            long waitNanos = 0;
            lock.lock();
            try {
                inFlight = null;
                if (problem == null) {
                    queue.remove(batch);
                    sent.merge(batch.signal(), 1L, Long::sum);
                    if (outage) {
                        lines.add(back());
                    }
                    String rejected = batch.answerProblem() == null ? null : batch.answerProblem().apply(answer);
                    if (rejected != null) {
                        lines.add(batch.headers().scrub(rejected));
                    }
                } else if (!problem.retryable()) {
                    refused = true;
                    queue.clear();
                    refusal = problem.getMessage();
                } else {
                    tries++;
                    if (!outage) {
                        outage = true;
                        outageStartNanos = System.nanoTime();
                        lines.add(problem.getMessage() + "; keeping up to " + kept() + " and trying again");
                    }
                    trim(batch.signal());
                    waitNanos = backoffNanos(tries, problem.retryAfterSeconds(), jitter);
                }
            } finally {
                lock.unlock();
            }
            for (String line : lines) {
                err.println("live: " + line);
            }
            err.flush();
            if (refusal != null) {
                onRefused.accept(refusal);
                return;
            }
            if (waitNanos > 0 && !await(waitNanos)) {
                return;
            }
        }
    }

    // Waits before the next try; only the drain's deadline cuts it (a new batch does not hurry an absent
    // endpoint). False when interrupted: close() gave up on this thread.
    private boolean await(long nanos) {
        long until = System.nanoTime() + nanos;
        lock.lock();
        try {
            for (long left = nanos; left > 0; left = until - System.nanoTime()) {
                if (closed) {
                    long toDeadline = drainDeadlineNanos - System.nanoTime();
                    if (toDeadline <= 0) {
                        return true;
                    }
                    left = Math.min(left, toDeadline);
                }
                changed.awaitNanos(left);
            }
            return true;
        } catch (InterruptedException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The wait after the {@code tries}-th failed try of an outage: 1, 2, 4 ... 30 s, each drawn between half
     * and all of it from {@code jitter}; what Retry-After asked (at most 30 s) when it did ({@code >= 0}).
     */
    static long backoffNanos(int tries, long retryAfterSeconds, Random jitter) {
        if (retryAfterSeconds >= 0) {
            // At least a tenth of a second: "Retry-After: 0" from an endpoint that keeps refusing is no busy loop.
            return Math.max(MIN_WAIT_NANOS, Math.min(MAX_BACKOFF_NANOS, TimeUnit.SECONDS.toNanos(retryAfterSeconds)));
        }
        long ceiling = tries > 6 ? MAX_BACKOFF_NANOS : Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << (tries - 1));
        return ceiling / 2 + (long) (jitter.nextDouble() * (ceiling / 2));
    }

    private String kept() {
        List<String> parts = new ArrayList<>();
        capacity.forEach((signal, n) -> parts.add(signal.count(n)));
        return String.join(" and ", parts);
    }

    // The end of an outage: how long, and what it cost.
    private String back() {
        long seconds = Math.round((System.nanoTime() - outageStartNanos) / 1e9);
        List<String> lost = new ArrayList<>();
        capacity.keySet().forEach(s -> {
            if (droppedInOutage.get(s) > 0) {
                lost.add(s.count(droppedInOutage.get(s)));
            }
        });
        String line = endpoint + ": taking data again after " + seconds + " s and " + tries + (tries == 1 ? " try" : " tries")
                + "; " + (lost.isEmpty() ? "nothing was dropped" : "dropped " + String.join(" and ", lost) + " (the oldest)");
        outage = false;
        tries = 0;
        droppedInOutage.replaceAll((s, n) -> 0L);
        return line;
    }

    /**
     * Stops taking batches and gives the ones queued up to {@code graceNanos} to be sent (tries go on,
     * their waits cut at the deadline); what is left then is dropped, counted and said in one line.
     */
    public void close(long graceNanos) {
        lock.lock();
        try {
            closed = true;
            drainDeadlineNanos = System.nanoTime() + graceNanos;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            sender.join(TimeUnit.NANOSECONDS.toMillis(graceNanos) + 1);
            if (sender.isAlive()) {
                sender.interrupt(); // a POST that has not answered by the deadline
                sender.join(TimeUnit.SECONDS.toMillis(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<String> left = new ArrayList<>();
        lock.lock();
        try {
            if (!refused) {
                for (Signal s : capacity.keySet()) {
                    long n = queue.stream().filter(b -> b.signal() == s).count();
                    if (n > 0) {
                        dropped.merge(s, n, Long::sum);
                        left.add(s.count(n));
                    }
                }
            }
            queue.clear();
        } finally {
            lock.unlock();
        }
        if (!left.isEmpty()) {
            err.println("live: " + endpoint + ": " + String.join(" and ", left) + " not sent: it did not take them"
                    + " before live stopped");
            err.flush();
        }
    }

    @Override
    public void close() {
        close(TimeUnit.SECONDS.toNanos(10));
    }
}
