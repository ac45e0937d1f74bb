package io.hopscope.agent.instrumentation.reactor;

import io.hopscope.agent.testing.WaitTimings;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Reactor's blocking calls, with the result there before the caller looks (a return hop, no wait) and
 * with the caller parked first (a wake hop and a wait): the hops depend on the path, not the timing.
 */
class ReturnHopIT {

    @RepeatedTest(3)
    void theWayBackIsAHopWhateverTheTiming() throws Exception {
        WaitTimings.assertTheWayBackIsAlwaysAHop("Mono.block", "Flux.blockFirst", "Flux.blockLast");
    }
}
