package io.hopscope.agent.instrumentation.forkjoin;

import static io.hopscope.agent.testing.Handovers.back;
import static io.hopscope.agent.testing.Handovers.callerWaits;
import static io.hopscope.agent.testing.Handovers.hops;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.CiSkip;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fork/join hand-overs are hops, and so is the way back, whatever the timing: a task forked to the
 * common pool, submitted (a task, a Runnable, a Callable), executed or invoked on a pool, each with
 * its result picked up after it completed (a return hop) or while the caller is parked (a wake hop);
 * a subtask its own worker runs inline is no hop. On this JVM and on the second JDK (21+).
 */
public class ForkJoinHandoverIT {

    /** HandoverApp's scenarios, in order. */
    public static final String[] SCENARIOS = {"fork:before", "fork:parked", "submit:before", "submit:parked",
        "submitRunnable:before", "submitRunnable:parked", "submitCallable:before", "submitCallable:parked",
        "execute:before", "execute:parked", "invoke:parked", "forkInline:parked"};
    /** The second JDK's scenario of a virtual thread's carrier. */
    public static final String VIRTUAL = "virtual:parked";

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void everyHandOverAndItsWayBackIsAHop(String java) throws Exception {
        check(java, Handovers.run(java, SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        String[] scenarios = SCENARIOS;
        String[] waits = {"ForkJoinTask.join", "ForkJoinTask.get", "ForkJoinTask.get", "ForkJoinTask.get",
            "ForkJoinTask.quietlyJoin", "ForkJoinPool.invoke"};
        for (int i = 0; i < scenarios.length; i++) {
            Requests.Request r = requests.get(i);
            String what = Handovers.jdk(java) + " " + scenarios[i] + ", request " + r.id;
            boolean parked = scenarios[i].endsWith("parked");
            String worker = i < 2 ? Requests.threadName(r.hops.get(0), "toThread") : "fj-worker";
            if (i < 2) {
                assertThat(worker).as(what).startsWith("ForkJoinPool.commonPool-worker-");
            }
            assertThat(hops(r)).as(what).containsExactly("handoff main->" + worker, back(parked) + " " + worker + "->main");
            assertThat(r.hops.get(0).getString("via")).as(what).isEqualTo("java.util.concurrent.ForkJoinPool");
            assertThat(r.hops.get(0).getLong("scheduledNanos")).as(what).isZero();
            assertThat(callerWaits(r)).as(what).containsExactly(parked ? new String[] {waits[Math.min(i / 2, 5)]} : new String[0]);
            assertThat(r.threads()).as(what).hasSize(2);
        }
        // The subtask that its worker forked and joined ran inline, in a segment of its own.
        Requests.Request inline = requests.get(scenarios.length - 1);
        assertThat(inline.segments).filteredOn(s -> s.getThread().getJavaName().equals("fj-worker"))
                .extracting(s -> s.getString("kind")).contains("task").hasSizeGreaterThanOrEqualTo(2);
    }

    /**
     * A virtual thread's continuation runs as a task of the fork/join pool that schedules it, and its
     * timed park's timeout as a scheduled task: neither is a hand-over of the request, so no carrier
     * thread (ForkJoinPool-N-worker-M) and no scheduled hop is in it. On the second JDK (21+) only.
     */
    @Test
    void aVirtualThreadsCarrierIsNoHop() throws Exception {
        String java = Handovers.secondJvm();
        CiSkip.unless(java != null, "no second JDK (21+) in HOPSCOPE_JDK2");
        checkVirtual(Handovers.run(java, VIRTUAL).get(0));
    }

    /** The request of {@link #VIRTUAL}. */
    public static void checkVirtual(Requests.Request r) {
        assertThat(hops(r)).as("hops").noneMatch(h -> h.contains("ForkJoinPool-"));
        assertThat(r.hops).extracting(h -> h.getLong("scheduledNanos")).containsOnly(0L);
        assertThat(r.segments).extracting(s -> s.getThread().getJavaName()).noneMatch(n -> n.startsWith("ForkJoinPool-"));
    }
}
