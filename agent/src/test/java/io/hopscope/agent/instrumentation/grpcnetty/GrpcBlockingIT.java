package io.hopscope.agent.instrumentation.grpcnetty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.CpuHog;
import io.hopscope.testapps.GrpcBlockingApp;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * gRPC-java's blocking stub (grpc-netty-shaded; the caller drains a ThreadlessExecutor it parks
 * in) against a gRPC server in the same JVM, 200 calls one after another, each a {@code requests=}
 * request, with every core kept busy by a spinning process: every call has the path a quiet run
 * gives it, whatever the timing. Its writes are handed to the client's event loop (one or more
 * handoffs, as gRPC's write queue schedules its flushes), the response is read there in the
 * request, and it comes back to the caller exactly once: a wake when the caller parked first, a
 * return when the response was queued before it looked, however many pieces (headers, message,
 * trailers) it came in and whichever flush wrote the call. Before, a call whose stream the previous
 * call's flow-control flush wrote (after that call ended) was read in no request and had no way back
 * (44 of 200 quiet, 25 of 200 with the cores busy, on 1.85.1), and the response's later pieces were
 * hops of their own (one to four per call).
 */
@Isolated("it keeps every core busy with a spinning process while its calls run")
class GrpcBlockingIT {

    static final int CALLS = 200;
    static final String BOUNDARY = GrpcBlockingApp.class.getName() + "#request";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends(GrpcNettyInstrumentation.NAME, new GrpcNettyInstrumentation().versions());
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("ends")
    void everyCallHasOneWayBackUnderLoad(String java, String version, String classPath) throws Exception {
        String what = "gRPC " + version + " on " + Handovers.jdk(java) + ", cores busy";
        List<Requests.Request> calls = runUnderCpuHog(java, classPath);
        assertThat(calls).as(what).hasSize(CALLS);
        for (int i = 0; i < calls.size(); i++) {
            checkCall(calls.get(i), what + ", call " + i);
        }
    }

    /**
     * The client's event loop on a plain Thread of the application's factory, started by the first
     * call, in its request: the loop's run is Netty's own, no task of that call (it was, for the
     * loop's lifetime, and every call's way back a hop of the first). The rule is Netty's, not the
     * JDK's nor gRPC's: one run shows it, on the newest end, this JVM, no load.
     */
    @Test
    void aLoopStartedInACallOnAPlainThreadIsNotThatCalls() throws Exception {
        String java = AgentRun.javaHere();
        String classPath = LibraryVersions.classPath(SupportedVersions.module(GrpcNettyInstrumentation.NAME,
                new GrpcNettyInstrumentation().versions().newest()));
        int calls = 20;
        String testClasses = System.getProperty("hopscope.test.classes");
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY,
                List.of("-cp", testClasses + File.pathSeparator + classPath, GrpcBlockingApp.class.getName(),
                        Integer.toString(calls), "plain-threads"));
        assertThat(run.stdout).as("stderr: %s", run.stderr).contains("calls ok: " + calls);
        List<Requests.Request> requests = new ArrayList<>(run.cleanRequests(calls).values());
        requests.removeIf(r -> r.request == null || !BOUNDARY.equals(r.request.getString("boundary")));
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(requests).hasSize(calls);
        for (int i = 0; i < calls; i++) {
            Requests.Request r = requests.get(i);
            long back = r.hops.stream().filter(h -> !h.getString("kind").equals("handoff")
                    && "client-loop".equals(Requests.threadName(h, "fromThread"))).count();
            assertThat(back).as("call %d's ways back from the loop: %s", i, describe(r)).isEqualTo(1);
        }
    }

    /** The app's calls, run while a spinning process keeps every core busy. */
    private static List<Requests.Request> runUnderCpuHog(String java, String classPath) throws Exception {
        String testClasses = System.getProperty("hopscope.test.classes");
        Process hog = new ProcessBuilder(AgentRun.javaHere(), "-cp", testClasses, CpuHog.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(hog.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).as("the hog started").startsWith("spinning ");
            AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY,
                    List.of("-cp", testClasses + File.pathSeparator + classPath, GrpcBlockingApp.class.getName(),
                            Integer.toString(CALLS)));
            assertThat(run.stdout).as("stderr: %s", run.stderr).contains("calls ok: " + CALLS);
            List<Requests.Request> calls = new ArrayList<>();
            for (Requests.Request r : run.cleanRequests(CALLS).values()) {
                if (r.request != null && BOUNDARY.equals(r.request.getString("boundary"))) {
                    calls.add(r);
                }
            }
            calls.sort(Comparator.comparing(r -> r.request.getStartTime()));
            return calls;
        } finally {
            hog.getOutputStream().close();
            hog.destroy();
            hog.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * One call's path: handoffs from the caller to the client's loop, the response read there in the
     * request, and one way back from the loop to the caller. The one other hop a call may have is
     * the loop's wait for a lock the caller holds (gRPC 1.9's ThreadlessExecutor is a blocking queue
     * whose lock both take): a wake of the loop with its Lock.lock Wait, a wait of the request.
     */
    private static void checkCall(Requests.Request r, String what) {
        r.assertOk(BOUNDARY);
        what += " " + describe(r);
        List<RecordedEvent> back = new ArrayList<>();
        int handoffs = 0;
        for (RecordedEvent h : r.hops) {
            String kind = h.getString("kind");
            String from = Requests.threadName(h, "fromThread");
            String to = Requests.threadName(h, "toThread");
            if (kind.equals("handoff") && "main".equals(from) && to.startsWith("client-loop-")) {
                handoffs++;
            } else if ((kind.equals("wake") || kind.equals("return")) && from.startsWith("client-loop-") && "main".equals(to)) {
                back.add(h);
            } else {
                assertThat(kind + " " + from + "->" + to).as(what + ": the loop waiting for the caller's lock")
                        .matches("wake main->client-loop-.*");
                assertThat(r.waits).as(what).anySatisfy(w -> {
                    assertThat(w.getThread().getJavaName()).startsWith("client-loop-");
                    assertThat(w.getString("kind")).isEqualTo("Lock.lock");
                });
            }
        }
        assertThat(handoffs).as(what + ": the writes handed to the loop").isPositive();
        assertThat(back).as(what + ": one way back").hasSize(1);
        assertThat(r.segments).as(what + ": the response read on the loop, in the request")
                .anySatisfy(s -> assertThat(s.getThread().getJavaName()).startsWith("client-loop-"));
        RecordedEvent way = back.get(0);
        if (way.getString("kind").equals("wake")) {
            // Parked first: its Wait, woken by the loop, whose latency is the hop's delay.
            assertThat(r.waits).as(what + ": the caller's wait").anySatisfy(w -> {
                assertThat(w.getThread().getJavaName()).isEqualTo("main");
                assertThat(Requests.threadName(w, "wakerThread")).startsWith("client-loop-");
                assertThat(w.getLong("wakeLatencyNanos")).isEqualTo(way.getLong("delayNanos"));
            });
        } else {
            // The callback's task, through the call's serializing executor or the ThreadlessExecutor it drains.
            assertThat(way.getString("via")).as(what).isIn("io.grpc.stub.ClientCalls$ThreadlessExecutor",
                    "io.grpc.internal.SerializingExecutor");
            assertThat(way.getLong("delayNanos")).as(what + ": queueing to pickup").isPositive();
        }
    }

    private static List<String> describe(Requests.Request r) {
        List<String> hops = new ArrayList<>();
        for (RecordedEvent h : r.hops) {
            hops.add(h.getString("kind") + " " + Requests.threadName(h, "fromThread") + "->"
                    + Requests.threadName(h, "toThread"));
        }
        return hops;
    }
}
