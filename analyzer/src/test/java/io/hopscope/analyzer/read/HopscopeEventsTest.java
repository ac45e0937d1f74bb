package io.hopscope.analyzer.read;

import static io.hopscope.analyzer.read.HopscopeEvents.each;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hopscope.analyzer.read.HopscopeEvents.AgentErrorEvent;
import io.hopscope.analyzer.read.HopscopeEvents.AgentInfoEvent;
import io.hopscope.analyzer.read.HopscopeEvents.ClockSyncEvent;
import io.hopscope.analyzer.read.HopscopeEvents.HopEvent;
import io.hopscope.analyzer.read.HopscopeEvents.RequestEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SegmentEvent;
import io.hopscope.analyzer.read.HopscopeEvents.SpanEvent;
import io.hopscope.analyzer.read.HopscopeEvents.WaitEvent;
import io.hopscope.analyzer.testing.ContractEvents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.Event;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed views give each field the agent wrote, and cannot be made to read a field the contract lacks. */
class HopscopeEventsTest {

    @TempDir
    Path dir;

    @Test
    void aViewOfAFieldOutsideTheContractCannotBeMade() {
        assertThatThrownBy(() -> new HopscopeEvents.View(HopscopeContract.SEGMENT, "requestId", "traceId") {
        }).isInstanceOf(IllegalStateException.class)
                .hasMessage("hopscope.Segment has no field traceId in the recording contract");
        assertThatThrownBy(() -> new HopscopeEvents.View("hopscope.NoSuchEvent", "requestId") {
        }).hasMessage("hopscope.NoSuchEvent has no field requestId in the recording contract");
    }

    @Test
    void everyViewReadsWhatWasWritten() throws Exception {
        Path file = dir.resolve("views.jfr");
        Thread me = Thread.currentThread();
        try (Recording recording = new Recording()) {
            for (Class<? extends Event> c : List.of(ContractEvents.Request.class, ContractEvents.Segment.class,
                    ContractEvents.Hop.class, ContractEvents.Span.class, ContractEvents.Wait.class,
                    ContractEvents.ClockSync.class, ContractEvents.AgentInfo.class, ContractEvents.AgentError.class)) {
                recording.enable(c);
            }
            recording.start();
            write(me);
            recording.stop();
            recording.dump(file);
        }
        List<String> read = new ArrayList<>();
        Map<String, Consumer<JfrEvent>> handlers = new LinkedHashMap<>();
        handlers.put(HopscopeContract.REQUEST, each(new RequestEvent(), e -> read.add(String.join(" ", "request",
                "" + e.requestId(), e.name(), e.boundary(), e.url(), e.outcome(), e.error(), "" + e.statusCode(),
                mine(e.startThread(), me), mine(e.eventThread(), me), "" + (e.endNanos() - e.startNanos() >= 0),
                e.kind()))));
        handlers.put(HopscopeContract.SEGMENT, each(new SegmentEvent(), e -> read.add(String.join(" ", "segment",
                "" + e.requestId(), e.kind(), "" + e.allocatedBytes(), "" + e.cpuNanos(), mine(e.eventThread(), me)))));
        handlers.put(HopscopeContract.HOP, each(new HopEvent(), e -> read.add(String.join(" ", "hop",
                "" + e.requestId(), e.kind(), "" + e.delayNanos(), "" + e.scheduledNanos(), e.via(),
                mine(e.fromThread(), me), mine(e.toThread(), me), mine(e.eventThread(), me), "" + e.serverQueue()))));
        handlers.put(HopscopeContract.SPAN, each(new SpanEvent(), e -> read.add(String.join(" ", "span",
                "" + e.requestId(), "" + e.spanId(), "" + e.parentSpanId(), e.kind(), e.name(), e.mode(),
                "" + e.depth(), mine(e.eventThread(), me)))));
        handlers.put(HopscopeContract.WAIT, each(new WaitEvent(), e -> read.add(String.join(" ", "wait",
                "" + e.requestId(), e.kind(), "" + e.wakeLatencyNanos(), "" + e.nonBlockingThread(), e.outcome(),
                mine(e.wakerThread(), me), mine(e.eventThread(), me)))));
        handlers.put(HopscopeContract.CLOCK_SYNC, each(new ClockSyncEvent(), e -> read.add("clock " + e.monotonicNanos())));
        handlers.put(HopscopeContract.AGENT_INFO, each(new AgentInfoEvent(), e -> read.add("info " + e.version() + " "
                + e.options())));
        handlers.put(HopscopeContract.AGENT_ERROR, each(new AgentErrorEvent(), e -> read.add("error "
                + e.source() + " " + e.message() + " " + e.count())));
        new JfrEvents().stream(file, handlers);
        assertThat(read).containsExactlyInAnyOrder(
                "request 7 GET 127.0.0.1/x servlet http://127.0.0.1/x error boom 503 me me true server",
                "segment 7 start 4096 1234 me",
                "hop 7 handoff 55 66 executor null me me true",
                "hop 7 wake 0 0 latch me me me false",
                "span 7 2 1 policy Retry async 3 me",
                "wait 7 Mono.block 77 true timeout me me",
                "clock 123456789",
                "info 9.9 requests=x",
                "error okhttp it broke 1", // a count of 0 stands for one failure
                "error reactor again 4",
                "error agent task jit-training not trained 1");
    }

    private static String mine(JfrThread t, Thread me) {
        return t == null ? "null" : t.javaThreadId() == me.getId() ? "me" : "other";
    }

    private static void write(Thread me) {
        ContractEvents.Request request = new ContractEvents.Request();
        request.begin();
        request.requestId = 7;
        request.name = "GET 127.0.0.1/x";
        request.boundary = "servlet";
        request.url = "http://127.0.0.1/x";
        request.outcome = "error";
        request.error = "boom";
        request.statusCode = 503;
        request.startThread = me;
        request.kind = "server";
        request.commit();
        ContractEvents.Segment segment = new ContractEvents.Segment();
        segment.begin();
        segment.requestId = 7;
        segment.kind = "start";
        segment.allocatedBytes = 4096;
        segment.cpuNanos = 1234;
        segment.commit();
        ContractEvents.Hop hop = new ContractEvents.Hop();
        hop.requestId = 7;
        hop.kind = "handoff";
        hop.delayNanos = 55;
        hop.scheduledNanos = 66;
        hop.via = "executor";
        hop.fromThread = null;
        hop.toThread = me;
        hop.serverQueue = true;
        hop.commit();
        // The agent writes no toThread when it is the event's own thread (always, today): the view gives that.
        ContractEvents.Hop wake = new ContractEvents.Hop();
        wake.requestId = 7;
        wake.kind = "wake";
        wake.via = "latch";
        wake.fromThread = me;
        wake.commit();
        ContractEvents.Span span = new ContractEvents.Span();
        span.begin();
        span.requestId = 7;
        span.spanId = 2;
        span.parentSpanId = 1;
        span.kind = "policy";
        span.name = "Retry";
        span.mode = "async";
        span.depth = 3;
        span.commit();
        ContractEvents.Wait wait = new ContractEvents.Wait();
        wait.begin();
        wait.requestId = 7;
        wait.kind = "Mono.block";
        wait.wakeLatencyNanos = 77;
        wait.nonBlockingThread = true;
        wait.outcome = "timeout";
        wait.wakerThread = me;
        wait.commit();
        ContractEvents.ClockSync clock = new ContractEvents.ClockSync();
        clock.monotonicNanos = 123456789;
        clock.commit();
        ContractEvents.AgentInfo info = new ContractEvents.AgentInfo();
        info.version = "9.9";
        info.options = "requests=x";
        info.commit();
        ContractEvents.AgentError first = new ContractEvents.AgentError();
        first.instrumentation = "okhttp";
        first.message = "it broke";
        first.count = 0;
        first.commit();
        ContractEvents.AgentError again = new ContractEvents.AgentError();
        again.instrumentation = "reactor";
        again.message = "again";
        again.count = 4;
        again.commit();
        ContractEvents.AgentError task = new ContractEvents.AgentError();
        task.instrumentation = "";
        task.task = "jit-training";
        task.message = "not trained";
        task.count = 1;
        task.commit();
    }
}
