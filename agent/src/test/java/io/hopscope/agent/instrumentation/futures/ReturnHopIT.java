package io.hopscope.agent.instrumentation.futures;

import io.hopscope.agent.testing.WaitTimings;
import org.junit.jupiter.api.RepeatedTest;

/**
 * The JDK futures' waits, with the result there before the caller looks (a return hop, no wait) and
 * with the caller parked first (a wake hop and a wait): the hops depend on the path, not the timing.
 */
class ReturnHopIT {

    @RepeatedTest(3)
    void theWayBackIsAHopWhateverTheTiming() throws Exception {
        WaitTimings.assertTheWayBackIsAlwaysAHop("CompletableFuture.get", "CompletableFuture.join", "FutureTask.get");
    }
}
