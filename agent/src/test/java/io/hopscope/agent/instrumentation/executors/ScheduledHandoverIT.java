package io.hopscope.agent.instrumentation.executors;

import static io.hopscope.agent.testing.Handovers.back;
import static io.hopscope.agent.testing.Handovers.callerWaits;
import static io.hopscope.agent.testing.Handovers.hops;
import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import io.hopscope.testapps.HandoverApp;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A scheduler's tasks are hops with their delay counted apart from the queue delay: a delayed task
 * (hop scheduledNanos = its delay), each run of a periodic one at a fixed rate or with a fixed delay
 * (the first due at once, the next one period later), and the way back from each whatever the
 * timing. A periodic task's runs after its request ended are not in it.
 */
public class ScheduledHandoverIT {

    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(HandoverApp.DELAY_MILLIS);
    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(HandoverApp.PERIOD_MILLIS);

    /** HandoverApp's scenarios, in order. */
    public static final String[] SCENARIOS = {"schedule:before", "schedule:parked", "fixedRate:before",
        "fixedRate:parked", "fixedDelay:before", "fixedDelay:parked", "periodicOutlives:before"};

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void scheduledRunsAreHopsWithTheirDelayApart(String java) throws Exception {
        check(java, Handovers.run(java, SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        String[] scenarios = SCENARIOS;
        for (int i = 0; i < 2; i++) {
            Requests.Request r = requests.get(i);
            boolean parked = i == 1;
            String what = Handovers.jdk(java) + " " + scenarios[i];
            assertThat(hops(r)).as(what).containsExactly("handoff main->sched", back(parked) + " sched->main");
            RecordedEvent handoff = r.hops.get(0);
            assertThat(handoff.getString("via")).as(what).isEqualTo("java.util.concurrent.ScheduledThreadPoolExecutor");
            // Read from the trigger time the scheduler computed from the same clock, a little after.
            assertThat(handoff.getLong("scheduledNanos")).as(what).isBetween(DELAY - TimeUnit.MILLISECONDS.toNanos(5), DELAY);
            assertThat(handoff.getLong("delayNanos")).as(what).isGreaterThanOrEqualTo(0);
            assertThat(callerWaits(r)).as(what).containsExactly(parked ? new String[] {"FutureTask.get"} : new String[0]);
        }
        for (int i = 2; i < 6; i++) {
            Requests.Request r = requests.get(i);
            boolean parked = i % 2 == 1;
            String what = Handovers.jdk(java) + " " + scenarios[i];
            assertThat(hops(r)).as(what).containsExactly("handoff main->sched", "handoff main->sched",
                    "handoff main->sched", back(parked) + " sched->main");
            assertThat(r.hops.subList(0, 3)).as(what).extracting(h -> h.getLong("scheduledNanos"))
                    .containsExactly(0L, PERIOD, PERIOD);
            assertThat(r.threads()).as(what).hasSize(2);
        }
        Requests.Request outlived = requests.get(6);
        assertThat(hops(outlived)).as("periodicOutlives").containsExactly("handoff main->sched");
        assertThat(outlived.segments).as("periodicOutlives").filteredOn(s -> s.getThread().getJavaName().equals("sched"))
                .hasSize(1);
    }
}
