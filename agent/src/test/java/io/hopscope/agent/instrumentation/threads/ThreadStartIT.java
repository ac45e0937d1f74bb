package io.hopscope.agent.instrumentation.threads;

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
 * A thread started in a request is a hop into it, and its result's way back a hop out, whatever the
 * timing: a platform thread (new Thread(r).start()) on this JVM and on the second JDK, and on it virtual
 * threads of a thread-per-task executor, from a platform caller and from a virtual one. The thread's
 * whole run is a task segment of the request.
 */
public class ThreadStartIT {

    /** HandoverApp's scenarios of a platform thread, in order. */
    public static final String[] SCENARIOS = {"newThread:before", "newThread:parked"};
    /** Those of virtual threads, on the second JDK. */
    public static final String[] VIRTUAL_SCENARIOS = {"virtualPerTask:before", "virtualPerTask:parked",
        "onVirtual-virtualPerTask:before", "onVirtual-virtualPerTask:parked"};

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void aStartedThreadIsAHop(String java) throws Exception {
        check(java, Handovers.run(java, SCENARIOS));
    }

    /** The requests of {@link #SCENARIOS} on {@code java}, in order. */
    public static void check(String java, List<Requests.Request> requests) {
        for (int i = 0; i < 2; i++) {
            Requests.Request r = requests.get(i);
            boolean parked = i == 1;
            String what = Handovers.jdk(java) + " newThread " + (parked ? "parked" : "before");
            assertThat(hops(r)).as(what).containsExactly("handoff main->spawned", back(parked) + " spawned->main");
            assertThat(r.hops.get(0).getString("via")).as(what).isEqualTo("java.lang.Thread");
            assertThat(r.segments).as(what).filteredOn(s -> s.getThread().getJavaName().equals("spawned"))
                    .extracting(s -> s.getString("kind")).containsExactly("task");
            assertThat(callerWaits(r)).as(what).containsExactly(parked ? new String[] {"CompletableFuture.get"} : new String[0]);
            assertThat(r.threads()).as(what).hasSize(2);
        }
    }

    @Test
    void virtualThreadsAreHopsFromPlatformAndVirtualCallers() throws Exception {
        String java = Handovers.secondJvm();
        CiSkip.unless(java != null, "no second JDK (21+) in HOPSCOPE_JDK2");
        checkVirtual(Handovers.run(java, VIRTUAL_SCENARIOS));
    }

    /** The requests of {@link #VIRTUAL_SCENARIOS}, in order. */
    public static void checkVirtual(List<Requests.Request> requests) {
        String[] scenarios = VIRTUAL_SCENARIOS;
        for (int i = 0; i < scenarios.length; i++) {
            Requests.Request r = requests.get(i);
            boolean parked = i % 2 == 1;
            String what = scenarios[i] + ", request " + r.id;
            // Each request names its threads from 1: a new executor (and caller) of its own.
            String caller = i < 2 ? "main" : "vcaller-1";
            String worker = "vworker-1";
            assertThat(hops(r)).as(what).containsExactly("handoff " + caller + "->" + worker,
                    back(parked) + " " + worker + "->" + caller);
            assertThat(r.hops.get(0).getString("via")).as(what).isEqualTo("java.lang.VirtualThread");
            assertThat(r.segments).as(what).filteredOn(s -> s.getThread().getJavaName().equals(worker))
                    .extracting(s -> s.getString("kind")).containsExactly("task");
            assertThat(callerWaits(r)).as(what).containsExactly(parked ? new String[] {"FutureTask.get"} : new String[0]);
            assertThat(r.threads()).as(what).hasSize(2);
        }
    }
}
