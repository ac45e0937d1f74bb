package io.hopscope.analyzer.testing;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Test-scope JFR events with the contract's names and fields (README, "The recording contract"), so tests can
 * write recordings the way the agent does without depending on the agent's classes. Each one's fields
 * are checked against the contract table by {@code read/RecordingContractTest}.
 */
public final class ContractEvents {

    private ContractEvents() {
    }

    /**
     * Writes a segment of request id that begins and ends now, of the given kind and allocation,
     * without a CPU figure (cpuNanos -1), on the calling thread.
     */
    public static void instantSegment(long id, String kind, long allocatedBytes) {
        Segment s = new Segment();
        s.begin();
        s.requestId = id;
        s.kind = kind;
        s.allocatedBytes = allocatedBytes;
        s.cpuNanos = -1;
        s.commit();
    }

    /** hopscope.Request. */
    @Name("hopscope.Request")
    @Category("hopscope")
    @StackTrace(false)
    public static final class Request extends Event {
        public long requestId;
        public String name;
        public String boundary;
        public String url;
        public String outcome;
        public String error;
        public int statusCode;
        public Thread startThread;
        public String traceId;
        public String spanId;
        public String kind;
    }

    /** hopscope.RequestStart (off by default; live enables it). */
    @Name("hopscope.RequestStart")
    @Category("hopscope")
    @StackTrace(false)
    public static final class RequestStart extends Event {
        public long requestId;
        public String name;
    }

    /** hopscope.Segment. */
    @Name("hopscope.Segment")
    @Category("hopscope")
    @StackTrace(false)
    public static final class Segment extends Event {
        public long requestId;
        public String kind;
        public long allocatedBytes;
        public long cpuNanos;
    }

    /** hopscope.Hop. */
    @Name("hopscope.Hop")
    @Category("hopscope")
    @StackTrace(false)
    public static final class Hop extends Event {
        public long requestId;
        public String kind;
        public Thread fromThread;
        public Thread toThread;
        public long delayNanos;
        public String via;
        public long scheduledNanos;
        public boolean serverQueue;
    }

    /** hopscope.Span. */
    @Name("hopscope.Span")
    @Category("hopscope")
    @StackTrace(false)
    public static final class Span extends Event {
        public long requestId;
        public long spanId;
        public long parentSpanId;
        public String kind;
        public String name;
        public String mode;
        public int depth;
    }

    /** hopscope.Wait. */
    @Name("hopscope.Wait")
    @Category("hopscope")
    @StackTrace(false)
    public static final class Wait extends Event {
        public long requestId;
        public String kind;
        public Thread wakerThread;
        public long wakeLatencyNanos;
        public boolean nonBlockingThread;
        public String outcome;
    }

    /** hopscope.ClockSync. */
    @Name("hopscope.ClockSync")
    @Category("hopscope")
    @StackTrace(false)
    public static final class ClockSync extends Event {
        public long monotonicNanos;
    }

    /** hopscope.AgentInfo. */
    @Name("hopscope.AgentInfo")
    @Category("hopscope")
    @StackTrace(false)
    public static final class AgentInfo extends Event {
        public String version;
        public String options;
        public long pid;
        public String instrumentations;
    }

    /** hopscope.AgentError. */
    @Name("hopscope.AgentError")
    @Category("hopscope")
    @StackTrace(false)
    public static final class AgentError extends Event {
        public String instrumentation;
        public String task;
        public String message;
        public long count;
    }
}
