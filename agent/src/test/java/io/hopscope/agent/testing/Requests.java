package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/** The hopscope events of one recording grouped by request id, for assertions. */
public final class Requests {

    /** One request's events. */
    public static final class Request {
        public final long id;
        public RecordedEvent request;
        public final List<RecordedEvent> segments = new ArrayList<>();
        public final List<RecordedEvent> hops = new ArrayList<>();
        public final List<RecordedEvent> spans = new ArrayList<>();
        public final List<RecordedEvent> waits = new ArrayList<>();

        Request(long id) {
            this.id = id;
        }

        /** Asserts that the request's own event was written, by this boundary, and that it went well. */
        public void assertOk(String boundary) {
            assertThat(request).as("Request event of %d", id).isNotNull();
            assertThat(request.getString("boundary")).isEqualTo(boundary);
            assertThat(request.getString("outcome")).isEqualTo("ok");
        }

        /** Java thread ids of every thread that worked on the request or that it hopped through. */
        public Set<Long> threads() {
            Set<Long> threads = new LinkedHashSet<>();
            for (RecordedEvent s : segments) {
                threads.add(s.getThread().getJavaThreadId());
            }
            for (RecordedEvent h : hops) {
                for (String field : new String[] {"fromThread", "toThread"}) {
                    RecordedThread t = "toThread".equals(field) && h.getValue(field) == null ? h.getThread() : h.getValue(field);
                    if (t != null) { // JFR writes a thread that had ended as null
                        threads.add(t.getJavaThreadId());
                    }
                }
            }
            return threads;
        }

        public long allocatedBytes() {
            return segments.stream().mapToLong(s -> s.getLong("allocatedBytes")).sum();
        }

        public long allocatedBytesOn(String threadName) {
            return segments.stream().filter(s -> threadName.equals(s.getThread().getJavaName()))
                    .mapToLong(s -> s.getLong("allocatedBytes")).sum();
        }

        public List<RecordedEvent> hops(String kind) {
            return hops.stream().filter(h -> kind.equals(h.getString("kind"))).toList();
        }
    }

    public static Map<Long, Request> byId(List<RecordedEvent> events) {
        Map<Long, Request> requests = new LinkedHashMap<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            if (!type.startsWith("hopscope.") || !e.hasField("requestId") || e.getLong("requestId") == 0) {
                continue;
            }
            Request r = requests.computeIfAbsent(e.getLong("requestId"), Request::new);
            switch (type) {
                case "hopscope.Request" -> r.request = e;
                case "hopscope.Segment" -> r.segments.add(e);
                case "hopscope.Hop" -> r.hops.add(e);
                case "hopscope.Span" -> r.spans.add(e);
                case "hopscope.Wait" -> r.waits.add(e);
                default -> { }
            }
        }
        for (Request r : requests.values()) {
            // A recording keeps each thread's events together, not in time order.
            for (List<RecordedEvent> list : List.of(r.segments, r.hops, r.spans, r.waits)) {
                list.sort(java.util.Comparator.comparing(RecordedEvent::getStartTime));
            }
        }
        return requests;
    }

    /**
     * The requests that are not inbound ones (kind server): a test app's calls, without those its
     * own in-process server answered.
     */
    public static Map<Long, Request> outbound(Map<Long, Request> requests) {
        Map<Long, Request> outbound = new LinkedHashMap<>();
        requests.forEach((id, r) -> {
            if (r.request == null || !"server".equals(r.request.getString("kind"))) {
                outbound.put(id, r);
            }
        });
        return outbound;
    }

    /** The inbound requests (kind server): those a test app's own in-process server answered. */
    public static Map<Long, Request> inbound(Map<Long, Request> requests) {
        Map<Long, Request> inbound = new LinkedHashMap<>(requests);
        inbound.keySet().removeAll(outbound(requests).keySet());
        return inbound;
    }

    /** The thread a request started on: its Request event's startThread, or the event's own thread when null. */
    public static String startThreadName(RecordedEvent request) {
        String name = threadName(request, "startThread");
        return name != null ? name : request.getThread().getJavaName();
    }

    public static String threadName(RecordedEvent event, String field) {
        RecordedThread t = event.getValue(field);
        if (t == null && "toThread".equals(field)) {
            t = event.getThread(); // a hop's toThread is not written when it is the event's own thread
        }
        return t == null ? null : t.getJavaName();
    }

    private Requests() {
    }
}
