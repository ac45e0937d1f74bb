package io.hopscope.agent.instrumentation.executors;

import static io.hopscope.agent.testing.Handovers.back;
import static io.hopscope.agent.testing.Handovers.callerWaits;
import static io.hopscope.agent.testing.Handovers.hops;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.internal.InternalFutureFailureAccess;
import io.hopscope.agent.testing.AppRuns;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Executors that are not the JDK's carry the request as the JDK's do, each timing forced: Guava's
 * listening decorator (one handoff, the way back a wake when the caller parked in Guava's own
 * future), its direct executor (no hop) and sequential executor (one handoff, though its worker and
 * the task are each wrapped: the worker's, via the pool), a hand-written executor delegating to another hand-written one (one
 * handoff, via the first), and a caller-runs executor (an RPC client's blocking call) in every
 * order of the caller's drain and the response: one way back from the I/O thread, whatever came
 * first and however many pieces the response comes in. The caller parked first: a wake (the tasks
 * it then runs come with it); the response queued first, or queued and the caller unparked before
 * its park: a return, queueing to pickup, with no Wait; a response of three pieces, queued before
 * the drain: one return; each queued once the caller parked again: one wake, and three Waits.
 */
public class AnyExecutorIT {

    private static final String APP = "io.hopscope.testapps.AnyExecutorApp";

    /** AnyExecutorApp's scenarios, in order. */
    public static final String[] SCENARIOS = {"listening:before", "listening:parked", "direct:before",
        "sequential:before", "sequential:parked", "delegating:before", "delegating:parked", "callerRuns:before",
        "callerRuns:parked", "callerRuns:unparked", "callerRunsPieces:before", "callerRunsPieces:parked"};
    /** Guava, besides the test applications. */
    public static final List<Class<?>> LIBRARIES = List.of(MoreExecutors.class, InternalFutureFailureAccess.class);

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void anyExecutorIsOneHopWhateverTheChain(String java) throws Exception {
        check(java, AppRuns.run(java, APP, LIBRARIES, SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        String[] scenarios = SCENARIOS;
        String jdk = Handovers.jdk(java) + " ";

        // A future of Guava's own: the way back is seen when the caller parked in it (a wake), not
        // when the result was there (hopscope knows no completion of it: no return hop).
        Requests.Request before = requests.get(0);
        assertThat(hops(before)).as(jdk + scenarios[0]).containsExactly("handoff main->pool");
        assertThat(before.hops.get(0).getString("via")).as(jdk + scenarios[0])
                .isEqualTo("com.google.common.util.concurrent.MoreExecutors$ListeningDecorator");
        assertThat(callerWaits(before)).as(jdk + scenarios[0]).isEmpty();
        Requests.Request parked = requests.get(1);
        assertThat(hops(parked)).as(jdk + scenarios[1]).containsExactly("handoff main->pool", "wake pool->main");
        assertThat(parked.hops.get(1).getString("via")).as(jdk + scenarios[1])
                .startsWith("com.google.common.util.concurrent.");
        assertWakeWait(parked, "LockSupport.park", "pool", jdk + scenarios[1]);

        Requests.Request direct = requests.get(2);
        assertThat(direct.hops).as(jdk + scenarios[2]).isEmpty();
        assertThat(direct.threads()).as(jdk + scenarios[2]).hasSize(1);

        for (int i = 3; i < 7; i++) {
            Requests.Request r = requests.get(i);
            boolean waited = i % 2 == 0;
            String worker = i < 5 ? "pool" : "own-worker";
            String what = jdk + scenarios[i];
            assertThat(hops(r)).as(what).containsExactly("handoff main->" + worker, back(waited) + " " + worker + "->main");
            // The sequential executor's worker, submitted to the pool, runs the task: the hop is the
            // worker's, via the pool; the delegating executor's task is the one the first wrapped.
            assertThat(r.hops.get(0).getString("via")).as(what).isEqualTo(i < 5
                    ? "java.util.concurrent.ThreadPoolExecutor"
                    : "io.hopscope.testapps.AnyExecutorApp$DelegatingExecutor");
            assertThat(callerWaits(r)).as(what).containsExactly(waited ? new String[] {"CompletableFuture.get"} : new String[0]);
            assertThat(r.threads()).as(what).hasSize(2);
        }

        // The caller-runs executor: the way back is one hop from the I/O thread whatever came first.
        String via = "io.hopscope.testapps.AnyExecutorApp$CallerRunsExecutor";
        for (int i = 7; i < scenarios.length; i++) {
            Requests.Request r = requests.get(i);
            String what = jdk + scenarios[i] + " " + hops(r);
            boolean woken = scenarios[i].endsWith(":parked");
            assertThat(hops(r)).as(what).containsExactly("handoff main->io", back(woken) + " io->main");
            assertThat(r.hops.get(1).getString("via")).as(what).isEqualTo(via);
            assertThat(r.request.getEndTime()).as(what).isAfterOrEqualTo(r.hops.get(1).getStartTime());
            if (!woken) {
                assertThat(callerWaits(r)).as(what + ": no wait, the response was there").isEmpty();
                assertThat(r.hops.get(1).getLong("delayNanos")).as(what + ": queueing to pickup").isPositive();
            } else if (scenarios[i].startsWith("callerRunsPieces")) {
                // Parked again for each piece: a Wait each, woken by the I/O thread; the first the hop.
                assertThat(callerWaits(r)).as(what).containsExactly("LockSupport.park", "LockSupport.park",
                        "LockSupport.park");
                assertThat(r.waits).as(what).allSatisfy(w ->
                        assertThat(Requests.threadName(w, "wakerThread")).isEqualTo("io"));
                assertThat(r.hops.get(1).getLong("delayNanos")).as(what)
                        .isEqualTo(r.waits.get(0).getLong("wakeLatencyNanos"));
            } else {
                assertWakeWait(r, "LockSupport.park", "io", what);
            }
        }
    }

    /** The caller's one Wait: of this kind, woken by {@code waker}, with its wake latency. */
    static void assertWakeWait(Requests.Request r, String kind, String waker, String what) {
        assertThat(callerWaits(r)).as(what).containsExactly(kind);
        RecordedEvent wait = r.waits.get(0);
        assertThat(Requests.threadName(wait, "wakerThread")).as(what).isEqualTo(waker);
        assertThat(wait.getLong("wakeLatencyNanos")).as(what).isGreaterThanOrEqualTo(0);
        assertThat(r.hops.get(r.hops.size() - 1).getLong("delayNanos")).as(what)
                .isEqualTo(wait.getLong("wakeLatencyNanos"));
    }
}
