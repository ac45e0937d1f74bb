package io.hopscope.agent.instrumentation.futures;

import static io.hopscope.agent.testing.Handovers.back;
import static io.hopscope.agent.testing.Handovers.callerWaits;
import static io.hopscope.agent.testing.Handovers.hops;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CompletableFuture's async stages are hops: supplyAsync on the default executor (a thread per task
 * on JDK 17 when the common pool has one worker, the common pool otherwise), runAsync on an
 * executor, and a chain of *Async stages on an executor and a fork/join pool, each handed over by
 * the thread that completed the stage before it; the way back is a hop whatever the timing.
 */
public class AsyncStagesIT {

    /** HandoverApp's scenarios, in order. */
    public static final String[] SCENARIOS = {"supplyAsync:before", "supplyAsync:parked", "runAsync:before",
        "runAsync:parked", "stages:before", "stages:parked"};

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void asyncStagesAreHops(String java) throws Exception {
        check(java, Handovers.run(java, SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        String[] scenarios = SCENARIOS;
        for (int i = 0; i < scenarios.length; i++) {
            Requests.Request r = requests.get(i);
            boolean parked = i % 2 == 1;
            String what = Handovers.jdk(java) + " " + scenarios[i] + ", request " + r.id;
            String wait = i < 2 ? "CompletableFuture.get" : "CompletableFuture.join";
            assertThat(callerWaits(r)).as(what).containsExactly(parked ? new String[] {wait} : new String[0]);
            if (i < 2) {
                String worker = Requests.threadName(r.hops.get(0), "toThread");
                assertThat(worker).as(what).isNotEqualTo("main");
                // JDK 17's thread per task ends with its task, and JFR writes a thread that has ended
                // as null (docs/agent.md): the way back from it may name no thread.
                boolean perTask = !worker.startsWith("ForkJoinPool.commonPool-worker-");
                String way = back(parked) + " %s->main";
                assertThat(hops(r)).as(what).hasSize(2).startsWith("handoff main->" + worker);
                assertThat(hops(r).get(1)).as(what).isIn(String.format(way, worker),
                        String.format(way, perTask ? "null" : worker));
                assertThat(r.threads()).as(what).hasSize(2);
            } else if (i < 4) {
                assertThat(hops(r)).as(what).containsExactly("handoff main->async", back(parked) + " async->main");
            } else {
                assertThat(hops(r)).as(what).containsExactly("handoff main->async", "handoff async->fj-worker",
                        "handoff fj-worker->async", back(parked) + " async->main");
                assertThat(r.threads()).as(what).hasSize(3);
            }
        }
    }
}
