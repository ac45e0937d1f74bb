package io.hopscope.analyzer.read;

import java.util.Map;
import java.util.function.Consumer;

/**
 * The agent's events as every consumer reads them: one typed view per hopscope event type, the only
 * place besides {@link HopscopeContract} that names a contract field (async-profiler's converter has one
 * class per event in the same way). Each view reads its fields by position ({@link EventFields}); each
 * name it reads is checked against {@link HopscopeContract#EVENTS} when it is made, so a view cannot read
 * a field the contract does not have.
 *
 * <p>A view is a flyweight over the event the reader hands over: valid only during the handler's call
 * (the stream reuses its event objects), so a consumer copies what it keeps. One view per handler: a
 * view remembers the last event type it saw (a new one per chunk).
 */
public final class HopscopeEvents {

    // Fields JFR gives every event; the contract table lists only the agent's own.
    private static final String EVENT_THREAD = "eventThread";

    private HopscopeEvents() {
    }

    /** {@code handler} called with {@code view} over each event handed to the returned consumer. */
    public static <V extends View> Consumer<JfrEvent> each(V view, Consumer<? super V> handler) {
        return e -> {
            view.event = e;
            handler.accept(view);
        };
    }

    /** A view over the current event of one hopscope type. */
    public abstract static class View {

        private final EventFields fields;
        JfrEvent event;

        View(String type, String... names) {
            Map<String, String> contract = HopscopeContract.EVENTS.get(type);
            for (String name : names) {
                if (contract == null || !(contract.containsKey(name) || name.equals(EVENT_THREAD))) {
                    throw new IllegalStateException(type + " has no field " + name + " in the recording contract");
                }
            }
            this.fields = new EventFields(names);
        }

        public long startNanos() {
            return event.startNanos();
        }

        public long endNanos() {
            return event.endNanos();
        }

        /** The event's duration as JFR gives it. */
        public long durationNanos() {
            return event.durationNanos();
        }

        long longAt(int i, long absent) {
            return fields.longValue(event, i, absent);
        }

        int intAt(int i, int absent) {
            return fields.intValue(event, i, absent);
        }

        String stringAt(int i) {
            return fields.string(event, i);
        }

        boolean booleanAt(int i) {
            return fields.booleanValue(event, i);
        }

        JfrThread threadAt(int i) {
            return fields.value(event, i) instanceof JfrThread t ? t : null;
        }
    }

    /** {@link HopscopeContract#REQUEST}: a request's end; its duration is the request's. */
    public static final class RequestEvent extends View {
        public RequestEvent() {
            super(HopscopeContract.REQUEST, "requestId", "name", "boundary", "url", "outcome", "error", "statusCode",
                    "startThread", EVENT_THREAD, "traceId", "spanId", "kind");
        }

        /** 0 outside any request, as in every view. */
        public long requestId() {
            return longAt(0, 0);
        }

        public String name() {
            return stringAt(1);
        }

        public String boundary() {
            return stringAt(2);
        }

        public String url() {
            return stringAt(3);
        }

        public String outcome() {
            return stringAt(4);
        }

        public String error() {
            return stringAt(5);
        }

        /** -1 when absent. */
        public int statusCode() {
            return intAt(6, -1);
        }

        public JfrThread startThread() {
            return threadAt(7);
        }

        public JfrThread eventThread() {
            return threadAt(8);
        }

        /** The W3C trace id the request began in, as recorded (unchecked), or null. */
        public String traceId() {
            return stringAt(9);
        }

        /** The W3C span id the request began in, as recorded (unchecked), or null. */
        public String spanId() {
            return stringAt(10);
        }

        /** {@code server}, {@code client} or {@code internal} as recorded (unchecked); null in a recording from before the field. */
        public String kind() {
            return stringAt(11);
        }
    }

    /** {@link HopscopeContract#REQUEST_START}: where a request begins (live only). */
    public static final class RequestStartEvent extends View {
        public RequestStartEvent() {
            super(HopscopeContract.REQUEST_START, "requestId", "name");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public String name() {
            return stringAt(1);
        }
    }

    /** {@link HopscopeContract#SEGMENT}: one thread's stretch of work on a request. */
    public static final class SegmentEvent extends View {
        public SegmentEvent() {
            super(HopscopeContract.SEGMENT, "requestId", EVENT_THREAD, "kind", "allocatedBytes", "cpuNanos");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public JfrThread eventThread() {
            return threadAt(1);
        }

        public String kind() {
            return stringAt(2);
        }

        /** 0 when absent. */
        public long allocatedBytes() {
            return longAt(3, 0);
        }

        /** -1 when absent (the agent could not measure it). */
        public long cpuNanos() {
            return longAt(4, -1);
        }
    }

    /** {@link HopscopeContract#HOP}: the request's execution arrived on another thread. */
    public static final class HopEvent extends View {
        public HopEvent() {
            super(HopscopeContract.HOP, "requestId", "kind", "delayNanos", "scheduledNanos", "toThread", "fromThread",
                    EVENT_THREAD, "via", "serverQueue");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public String kind() {
            return stringAt(1);
        }

        public long delayNanos() {
            return longAt(2, 0);
        }

        public long scheduledNanos() {
            return longAt(3, 0);
        }

        /** The thread the request arrived on: the event's own when the recording has none (the agent writes none then). */
        public JfrThread toThread() {
            JfrThread to = threadAt(4);
            return to != null ? to : threadAt(6);
        }

        public JfrThread fromThread() {
            return threadAt(5);
        }

        public JfrThread eventThread() {
            return threadAt(6);
        }

        public String via() {
            return stringAt(7);
        }

        /** Whether it is a server's hand-over of an inbound request to its request thread; false in a recording from before the field. */
        public boolean serverQueue() {
            return booleanAt(8);
        }
    }

    /** {@link HopscopeContract#WAIT}: a blocking wait that returned. */
    public static final class WaitEvent extends View {
        public WaitEvent() {
            super(HopscopeContract.WAIT, "requestId", "nonBlockingThread", "kind", EVENT_THREAD, "wakerThread",
                    "wakeLatencyNanos", "outcome");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public boolean nonBlockingThread() {
            return booleanAt(1);
        }

        public String kind() {
            return stringAt(2);
        }

        public JfrThread eventThread() {
            return threadAt(3);
        }

        public JfrThread wakerThread() {
            return threadAt(4);
        }

        /** -1 when absent. */
        public long wakeLatencyNanos() {
            return longAt(5, -1);
        }

        public String outcome() {
            return stringAt(6);
        }
    }

    /** {@link HopscopeContract#MOUNTS}: a virtual thread done with a request. */
    public static final class MountsEvent extends View {
        public MountsEvent() {
            super(HopscopeContract.MOUNTS, "requestId", "mounts", "mountWaitNanos", "maxMountWaitNanos", "mountedNanos",
                    "carriers", EVENT_THREAD, "allocatedBytes");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public int mounts() {
            return intAt(1, 0);
        }

        public long mountWaitNanos() {
            return longAt(2, 0);
        }

        public long maxMountWaitNanos() {
            return longAt(3, 0);
        }

        public long mountedNanos() {
            return longAt(4, 0);
        }

        public String carriers() {
            return stringAt(5);
        }

        public JfrThread eventThread() {
            return threadAt(6);
        }

        /** -1 when absent. */
        public long allocatedBytes() {
            return longAt(7, -1);
        }
    }

    /** {@link HopscopeContract#AGENT_WORK}: the agent's own work during a segment. */
    public static final class AgentWorkEvent extends View {
        public AgentWorkEvent() {
            super(HopscopeContract.AGENT_WORK, "requestId", EVENT_THREAD, "classes", "transformedClasses", "nanos",
                    "cpuNanos", "allocatedBytes");
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public JfrThread eventThread() {
            return threadAt(1);
        }

        public int classes() {
            return intAt(2, 0);
        }

        public int transformedClasses() {
            return intAt(3, 0);
        }

        public long nanos() {
            return longAt(4, 0);
        }

        /** -1 when absent. */
        public long cpuNanos() {
            return longAt(5, -1);
        }

        /** -1 when absent. */
        public long allocatedBytes() {
            return longAt(6, -1);
        }
    }

    /** {@link HopscopeContract#SPAN}: a pipeline policy, interceptor or nested boundary invocation. */
    public static final class SpanEvent extends View {
        public SpanEvent() {
            super(HopscopeContract.SPAN, "requestId", "spanId", "parentSpanId", "kind", "name", "mode", "depth",
                    EVENT_THREAD);
        }

        public long requestId() {
            return longAt(0, 0);
        }

        public long spanId() {
            return longAt(1, 0);
        }

        public long parentSpanId() {
            return longAt(2, 0);
        }

        public String kind() {
            return stringAt(3);
        }

        public String name() {
            return stringAt(4);
        }

        public String mode() {
            return stringAt(5);
        }

        public int depth() {
            return intAt(6, 0);
        }

        public JfrThread eventThread() {
            return threadAt(7);
        }
    }

    /** {@link HopscopeContract#CLOCK_SYNC}: the agent's monotonic clock at the event's time. */
    public static final class ClockSyncEvent extends View {
        public ClockSyncEvent() {
            super(HopscopeContract.CLOCK_SYNC, "monotonicNanos");
        }

        public long monotonicNanos() {
            return longAt(0, 0);
        }
    }

    /** {@link HopscopeContract#AGENT_INFO}: the agent's version and options. */
    public static final class AgentInfoEvent extends View {
        public AgentInfoEvent() {
            super(HopscopeContract.AGENT_INFO, "version", "options");
        }

        public String version() {
            return stringAt(0);
        }

        public String options() {
            return stringAt(1);
        }
    }

    /** {@link HopscopeContract#AGENT_ERROR}: an instrumentation, or a task of the agent's own, that failed, and how often. */
    public static final class AgentErrorEvent extends View {
        public AgentErrorEvent() {
            super(HopscopeContract.AGENT_ERROR, "instrumentation", "task", "message", "count");
        }

        /** Empty (or null) when a task of the agent's own failed. */
        public String instrumentation() {
            return stringAt(0);
        }

        /** Null in a recording from before the field (where the task was in instrumentation). */
        public String task() {
            return stringAt(1);
        }

        public String message() {
            return stringAt(2);
        }

        /** At least 1 (an error event stands for one failure when it carries no count). */
        public long count() {
            return Math.max(1, longAt(3, 1));
        }

        /** What failed, for a line: the instrumentation, else {@code agent task NAME}. */
        public String source() {
            String instrumentation = instrumentation();
            return instrumentation != null && !instrumentation.isEmpty() ? instrumentation : "agent task " + task();
        }
    }
}
