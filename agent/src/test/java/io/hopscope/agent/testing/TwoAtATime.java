package io.hopscope.agent.testing;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A test class's independent JVM runs, started two at a time as soon as the class starts, each
 * handed to the test method that checks it. Each JVM under the agent runs its start on about one
 * core and then waits on loopback I/O and its own threads, so on two cores two at a time take less
 * wall time than one after the other (docs/performance.md, "Test suite"); the checks stay per test
 * method, as they were. Only for runs that measure no time (exit codes, events, heap histograms):
 * each run's duration grows when another runs beside it. One pool for the whole test JVM, so that
 * however many test classes run at once (failsafe runs two), no more than two of these runs do;
 * they start in the order they were queued.
 *
 * <p>A failure inside a run (an assertion of the run itself, a timeout) is thrown again, as it was,
 * by {@link #get} in the test that asks for that run.
 */
public final class TwoAtATime<K, V> {

    private static final ExecutorService RUNNERS = Executors.newFixedThreadPool(2, task -> {
        Thread t = new Thread(task, "two-at-a-time");
        t.setDaemon(true);
        return t;
    });

    private final Map<K, Future<V>> runs = new ConcurrentHashMap<>();

    /** Queues {@code run} under {@code key}; it starts once one of the two runners is free. */
    public void start(K key, Callable<V> run) {
        if (runs.putIfAbsent(key, RUNNERS.submit(run)) != null) {
            throw new IllegalArgumentException("started twice: " + key);
        }
    }

    /** Waits for the run started under {@code key} and gives what it returned, or throws what it threw. */
    public V get(K key) throws Exception {
        Future<V> run = runs.get(key);
        if (run == null) {
            throw new IllegalArgumentException("never started: " + key + "; started: " + runs.keySet());
        }
        try {
            return run.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }
}
