package io.hopscope.agent.instrumentation.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import java.io.File;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Netty's own client and server on 127.0.0.1, without any library over them (testapps.NettyApp):
 * a write from a request hands over to the channel's event loop, the response the loop reads on that
 * channel is the request's (what its decoding allocates included), a read after the request ended
 * is in none, and a wait on the loop is a wait on a non-blocking thread. On the oldest release
 * supported (4.0.26) and the newest tested (4.2), one run of the app each.
 */
class NettyIT {

    private static final int COUNT = 4;
    /** What NettyApp's client loop allocates for each line it reads. */
    private static final long READ_ALLOCATION = 1 << 20;
    private static final String BOUNDARY = "io.hopscope.testapps.NettyApp#exchange";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("netty", new NettyInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} Netty {1}")
    @MethodSource("ends")
    void aChannelsWritesAndReadsAreItsRequests(String java, String version, String libraries) throws Exception {
        String classPath = System.getProperty("hopscope.test.classes") + File.pathSeparator + libraries;
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + BOUNDARY,
                List.of("-cp", classPath, "io.hopscope.testapps.NettyApp", Integer.toString(COUNT)));
        assertThat(run.stdout).as(run.stderr).contains("responses ok: " + (COUNT + 1), "unsolicited: unsolicited");
        List<Requests.Request> requests = run.cleanRequests(COUNT + 1).values().stream()
                .sorted(Comparator.comparing(r -> r.request.getStartTime())).toList();
        assertThat(requests).hasSize(COUNT + 1);
        for (Requests.Request r : requests) {
            r.assertOk(BOUNDARY);
            assertThat(Requests.startThreadName(r.request)).isEqualTo("main");
        }
        // The first COUNT requests; the last one blocks its loop on purpose.
        List<Requests.Request> plain = requests.subList(0, COUNT);
        aWriteFromARequestHandsOverToTheChannelsEventLoopAndTheResponseComesBack(plain);
        theResponsesReadOnTheChannelIsTheRequestsWithWhatItAllocates(plain);
        aReadAfterTheRequestEndedIsInNoRequest(requests);
        aWaitOnTheEventLoopIsAWaitOnANonBlockingThread(run, requests);
    }

    private static String loopOf(Requests.Request r) {
        return Requests.threadName(r.hops("handoff").get(0), "toThread");
    }

    private static void aWriteFromARequestHandsOverToTheChannelsEventLoopAndTheResponseComesBack(
            List<Requests.Request> plain) {
        for (Requests.Request r : plain) {
            assertThat(r.hops("handoff")).as("handoffs of request %d", r.id).singleElement().satisfies(h -> {
                assertThat(Requests.threadName(h, "fromThread")).isEqualTo("main");
                assertThat(Requests.threadName(h, "toThread")).startsWith("client-loop-");
                // The executor's class: NioEventLoopGroup's event loop, in 4.0 as in 4.2.
                assertThat(h.getString("via")).isEqualTo("io.netty.channel.nio.NioEventLoop");
            });
            // The way back is a hop whatever the timing: wake if main was parked in get, else return.
            List<RecordedEvent> back = r.hops.stream().filter(h -> !h.getString("kind").equals("handoff")).toList();
            assertThat(back).as("the way back of request %d", r.id).singleElement().satisfies(h -> {
                assertThat(h.getString("kind")).isIn("wake", "return");
                assertThat(Requests.threadName(h, "fromThread")).isEqualTo(loopOf(r));
                assertThat(Requests.threadName(h, "toThread")).isEqualTo("main");
            });
            // Nothing of the server's loop: it never works on a request.
            assertThat(r.segments).noneMatch(s -> s.getThread().getJavaName().startsWith("server-loop-"));
        }
    }

    private static void theResponsesReadOnTheChannelIsTheRequestsWithWhatItAllocates(List<Requests.Request> plain) {
        for (Requests.Request r : plain) {
            // The write's task and the read of the echo: both on the loop, both the request's.
            assertThat(r.segments).as("segments of request %d", r.id)
                    .filteredOn(s -> s.getThread().getJavaName().equals(loopOf(r))).hasSizeGreaterThanOrEqualTo(2);
            assertThat(r.allocatedBytesOn(loopOf(r))).as("allocated on the loop by request %d", r.id)
                    .isGreaterThanOrEqualTo(READ_ALLOCATION);
        }
    }

    private static void aReadAfterTheRequestEndedIsInNoRequest(List<Requests.Request> requests) {
        // The unsolicited line is read on the channel the last request wrote on, after it ended
        // (main asks the server for it once the request has returned): a read in that request
        // would be a segment that starts after its end.
        for (Requests.Request r : requests) {
            Instant end = r.request.getEndTime();
            assertThat(r.segments).as("segments of request %d", r.id)
                    .allSatisfy(s -> assertThat(s.getStartTime()).isBeforeOrEqualTo(end));
        }
    }

    private static void aWaitOnTheEventLoopIsAWaitOnANonBlockingThread(AgentRun run, List<Requests.Request> requests)
            throws Exception {
        Requests.Request blocking = requests.get(COUNT);
        assertThat(blocking.waits).filteredOn(w -> w.getThread().getJavaName().startsWith("client-loop-"))
                .singleElement().satisfies(w -> {
                    assertThat(w.getString("kind")).isEqualTo("CompletableFuture.get");
                    assertThat(w.getBoolean("nonBlockingThread")).isTrue();
                    assertThat(w.getString("outcome")).isEqualTo("value");
                });
        // The waits of main, a plain thread, are not.
        List<RecordedEvent> mainWaits = requests.stream().flatMap(r -> r.waits.stream())
                .filter(w -> w.getThread().getJavaName().equals("main")).toList();
        assertThat(mainWaits).noneMatch(w -> w.getBoolean("nonBlockingThread"));
        List<RecordedEvent> flagged = run.events().stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.NonBlockingWait")).toList();
        assertThat(flagged).singleElement().satisfies(e -> {
            assertThat(e.getLong("requestId")).isEqualTo(blocking.id);
            assertThat(e.getStackTrace()).isNotNull();
        });
    }
}
