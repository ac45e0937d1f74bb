package io.hopscope.testapps;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/**
 * Runs {@code COUNT} requests ({@link #request} is the boundary) of one workload, prints the sizes
 * of the agent's tables ({@code tables: tasks=N attached=N waiting=N carried=N}), then "ready", and
 * waits for a line on stdin, so that the test can take a heap histogram of the live JVM.
 * Workloads: {@code never-ending} (a task submitted and never run, a CompletableFuture never
 * completed waited on with a timeout, a Mono.block that times out), {@code threads} (a platform
 * thread started and joined), {@code virtual-threads} (JDK 21+), {@code quick} (an empty request),
 * {@code held-tasks} (never-ending, but the application keeps its queue of tasks never run).
 * Needs Reactor on the class path (the samples jar has it).
 */
public final class MemoryBoundApp {

    public static void main(String[] args) throws Exception {
        String workload = args[0];
        int count = Integer.parseInt(args[1]);
        Runnable body;
        switch (workload) {
            case "never-ending":
            case "held-tasks":
                body = neverEnding();
                break;
            case "threads":
                body = () -> join(new Thread(() -> { }, "short-lived"));
                break;
            case "virtual-threads":
                body = () -> join(virtualThread(() -> { }));
                break;
            case "quick":
                body = () -> { };
                break;
            default:
                throw new IllegalArgumentException("unknown workload " + workload);
        }
        for (int i = 0; i < count; i++) {
            request(body);
        }
        if (!workload.equals("held-tasks")) {
            blocked.shutdownNow(); // the tasks submitted to it were never run; the application drops them
            blocked = null;
        }
        System.gc(); // the tables' weak entries of collected keys go at their next size()
        System.out.println("tables: " + tables());
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (blocked != null) {
            blocked.shutdownNow(); // held-tasks: its worker waits forever otherwise
        }
    }

    private static ExecutorService blocked = Executors.newSingleThreadExecutor();

    public static void request(Runnable body) {
        body.run();
    }

    private static Runnable neverEnding() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        blocked.execute(() -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                // shutdownNow at the end
            }
        });
        started.await();
        return () -> {
            blocked.execute(() -> {
                throw new AssertionError("never runs");
            });
            try {
                new CompletableFuture<String>().get(1, TimeUnit.MILLISECONDS);
                throw new AssertionError("never completed");
            } catch (TimeoutException expected) {
                // the request waited and gave up
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            try {
                Mono.never().block(Duration.ofMillis(1));
                throw new AssertionError("never completed");
            } catch (IllegalStateException expected) {
                // "Timeout on blocking read"
            }
        };
    }

    /** Thread.ofVirtual().unstarted(task), by reflection: the tests compile for JDK 17. */
    private static Thread virtualThread(Runnable task) {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            return (Thread) Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class)
                    .invoke(builder, task);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("virtual threads need JDK 21+", e);
        }
    }

    private static void join(Thread thread) {
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** The entry counts of the agent's tables, read by reflection (the agent has no API for it). */
    static String tables() throws Exception {
        Class<?> bridge = Class.forName("io.hopscope.agent.bootstrap.BridgeState");
        Object handoffs = field(bridge, null, "handoffs");
        Object waits = field(bridge, null, "waits");
        Object carriers = field(bridge, null, "carriers");
        return "tasks=" + ((Map<?, ?>) field(handoffs.getClass(), handoffs, "tasks")).size()
                + " attached=" + ((Map<?, ?>) field(handoffs.getClass(), handoffs, "attached")).size()
                + " waiting=" + ((Map<?, ?>) field(waits.getClass(), waits, "waiting")).size()
                + " carried=" + ((Map<?, ?>) field(carriers.getClass(), carriers, "carried")).size();
    }

    private static Object field(Class<?> type, Object owner, String name) throws Exception {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(owner);
    }
}
