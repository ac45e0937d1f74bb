package io.hopscope.agent.instrumentation.parks;

import static io.hopscope.agent.testing.Handovers.callerWaits;
import static io.hopscope.agent.testing.Handovers.hops;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AppRuns;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Waits hopscope knows by the park they end in (CountDownLatch, Semaphore, SynchronousQueue) or by
 * their own rule (Thread.join): the caller parked and released by the worker of its request is one
 * wake hop from the worker, with a Wait of the synchronizer's kind, its waker and wake latency;
 * released before it looked, no wait and no hop back (a join: a return hop from the thread that ended).
 */
public class ParkWaitsIT {

    private static final String APP = "io.hopscope.testapps.ParkWaitsApp";

    /** ParkWaitsApp's scenarios, in order. */
    public static final String[] SCENARIOS = {"CountDownLatch.await:before", "CountDownLatch.await:parked",
        "Semaphore.acquire:before", "Semaphore.acquire:parked", "SynchronousQueue.take:parked", "Thread.join:before",
        "Thread.join:parked"};

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void aParkReleasedByTheRequestIsAWake(String java) throws Exception {
        check(java, AppRuns.run(java, APP, List.of(), SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        String[] scenarios = SCENARIOS;
        String jdk = Handovers.jdk(java) + " ";
        String[] kinds = {"CountDownLatch.await", "Semaphore.acquire"};
        for (int i = 0; i < 4; i++) {
            Requests.Request r = requests.get(i);
            String what = jdk + scenarios[i];
            if (i % 2 == 0) {
                assertThat(hops(r)).as(what).containsExactly("handoff main->worker");
                assertThat(r.waits).as(what).isEmpty();
            } else {
                assertThat(hops(r)).as(what).containsExactly("handoff main->worker", "wake worker->main");
                assertWake(r, kinds[i / 2], "worker", what);
            }
        }
        Requests.Request queue = requests.get(4);
        assertThat(hops(queue)).as(jdk + scenarios[4]).containsExactly("handoff main->worker", "wake worker->main");
        assertWake(queue, "SynchronousQueue.transfer", "worker", jdk + scenarios[4]);

        // The joined thread has ended when the way back is written: JDK 17 writes such a thread as null.
        Requests.Request ended = requests.get(5);
        assertThat(hops(ended)).as(jdk + scenarios[5]).hasSize(2).startsWith("handoff main->joined");
        assertThat(ended.hops.get(1).getString("kind")).as(jdk + scenarios[5]).isEqualTo("return");
        assertThat(Requests.threadName(ended.hops.get(1), "toThread")).as(jdk + scenarios[5]).isEqualTo("main");
        assertThat(Requests.threadName(ended.hops.get(1), "fromThread")).as(jdk + scenarios[5]).isIn("joined", null);
        assertThat(ended.waits).as(jdk + scenarios[5]).isEmpty();
        Requests.Request joined = requests.get(6);
        assertThat(joined.hops).as(jdk + scenarios[6]).hasSize(2);
        assertThat(hops(joined).get(0)).as(jdk + scenarios[6]).isEqualTo("handoff main->joined");
        RecordedEvent back = joined.hops.get(1);
        assertThat(back.getString("kind")).as(jdk + scenarios[6]).isEqualTo("wake");
        assertThat(back.getString("via")).as(jdk + scenarios[6]).isEqualTo("java.lang.Thread");
        assertThat(Requests.threadName(back, "fromThread")).as(jdk + scenarios[6]).isIn("joined", null);
        assertThat(callerWaits(joined)).as(jdk + scenarios[6]).containsExactly("Thread.join");
        assertThat(joined.waits.get(0).getLong("wakeLatencyNanos")).as(jdk + scenarios[6]).isGreaterThanOrEqualTo(0);
    }

    /** The caller's one Wait: of this kind, woken by {@code waker}, its latency the wake hop's delay. */
    private static void assertWake(Requests.Request r, String kind, String waker, String what) {
        assertThat(callerWaits(r)).as(what).containsExactly(kind);
        RecordedEvent wait = r.waits.get(0);
        assertThat(Requests.threadName(wait, "wakerThread")).as(what).isEqualTo(waker);
        assertThat(wait.getLong("wakeLatencyNanos")).as(what).isGreaterThanOrEqualTo(0);
        RecordedEvent wake = r.hops.get(r.hops.size() - 1);
        assertThat(wake.getLong("delayNanos")).as(what).isEqualTo(wait.getLong("wakeLatencyNanos"));
        assertThat(wake.getString("via")).as(what).startsWith("java.util.concurrent.");
    }
}
