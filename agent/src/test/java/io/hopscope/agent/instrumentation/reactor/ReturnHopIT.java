package io.hopscope.agent.instrumentation.reactor;

import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.WaitTimings;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reactor's blocking calls, with the result there before the caller looks (a return hop, no wait) and
 * with the caller parked first (a wake hop and a wait): the hops depend on the path, not the timing.
 * On the oldest release supported and the newest tested, on each JDK: four runs, where one JDK ran
 * it three times before.
 */
class ReturnHopIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("reactor", new ReactorInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} Reactor {1}")
    @MethodSource("ends")
    void theWayBackIsAHopWhateverTheTiming(String java, String version, String libraries) throws Exception {
        WaitTimings.assertTheWayBackIsAlwaysAHopOn(java, libraries, "Mono.block", "Flux.blockFirst", "Flux.blockLast");
    }
}
