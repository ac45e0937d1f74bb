package io.hopscope.analyzer.read;

import java.util.AbstractList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * {@link JfrEvent} over the JDK's {@link RecordedEvent}: the reference reader ({@code --reader jdk}) and
 * {@code live}'s, over a JVM's stream. One view per stream, handed to every handler: it wraps the
 * stream's reused event, and each {@link RecordedThread} once (the parser gives one object per thread
 * and chunk, and the analyzer interns threads by that identity).
 */
public final class JdkEvent implements JfrEvent {

    private RecordedEvent event;
    private final Map<RecordedThread, JdkThread> threads = new IdentityHashMap<>();

    /** {@code handler} called with this view over each event handed to the returned consumer. */
    public Consumer<RecordedEvent> feeding(Consumer<? super JfrEvent> handler) {
        return e -> {
            event = e;
            handler.accept(this);
        };
    }

    /** A view of its own over each event handed to the returned consumer (a handler on a stream of its own). */
    public static Consumer<RecordedEvent> adapt(Consumer<? super JfrEvent> handler) {
        return new JdkEvent().feeding(handler);
    }

    RecordedEvent recorded() {
        return event;
    }

    @Override
    public String typeName() {
        return event.getEventType().getName();
    }

    @Override
    public long startNanos() {
        return JfrEvents.epochNanos(event.getStartTime());
    }

    @Override
    public long endNanos() {
        return JfrEvents.epochNanos(event.getEndTime());
    }

    @Override
    public long durationNanos() {
        return event.getDuration().toNanos();
    }

    @Override
    public JfrThread thread() {
        return thread(event.getThread());
    }

    @Override
    public JfrStack stackTrace() {
        RecordedStackTrace st = event.getStackTrace();
        return st == null ? null : new JdkStack(st);
    }

    @Override
    public boolean hasField(String name) {
        return event.hasField(name);
    }

    @Override
    public Object value(String name) {
        try {
            return wrap(event.getValue(name));
        } catch (IllegalArgumentException absent) {
            return null;
        }
    }

    @Override
    public long timespanNanos(String name, long absent) {
        return event.hasField(name) ? event.getDuration(name).toNanos() : absent;
    }

    /** A value as this reader's consumers see it: the JDK's threads, classes and stacks wrapped. */
    Object wrap(Object v) {
        if (v instanceof RecordedThread t) {
            return thread(t);
        }
        if (v instanceof RecordedClass c) {
            return new JdkClass(c);
        }
        if (v instanceof RecordedStackTrace s) {
            return new JdkStack(s);
        }
        return v;
    }

    JfrThread thread(RecordedThread t) {
        if (t == null) {
            return null;
        }
        JdkThread seen = threads.get(t);
        if (seen == null) {
            if (threads.size() > 100_000) {
                threads.clear(); // objects of past chunks; bounded whatever the number of chunks
            }
            seen = new JdkThread(t);
            threads.put(t, seen);
        }
        return seen;
    }

    private record JdkThread(RecordedThread t) implements JfrThread {
        @Override
        public long javaThreadId() {
            return t.getJavaThreadId();
        }

        @Override
        public long osThreadId() {
            return t.getOSThreadId();
        }

        @Override
        public String javaName() {
            return t.getJavaName();
        }

        @Override
        public String osName() {
            return t.getOSName();
        }

        // RecordedThread#isVirtual is not in JDK 17's API: read the field (JDK 21+ recordings).
        @Override
        public boolean isVirtual() {
            return t.hasField("virtual") && t.getBoolean("virtual");
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    private record JdkClass(RecordedClass c) implements JfrClass {
        @Override
        public String name() {
            return c.getName();
        }
    }

    private record JdkStack(RecordedStackTrace st) implements JfrStack {
        @Override
        public boolean isTruncated() {
            return st.isTruncated();
        }

        @Override
        public List<JfrFrame> frames() {
            List<RecordedFrame> frames = st.getFrames();
            return new AbstractList<>() {
                @Override
                public JfrFrame get(int index) {
                    return new JdkFrame(frames.get(index));
                }

                @Override
                public int size() {
                    return frames.size();
                }
            };
        }
    }

    private record JdkFrame(RecordedFrame f) implements JfrFrame {
        @Override
        public boolean hasMethod() {
            return f.getMethod() != null;
        }

        @Override
        public String typeName() {
            return f.getMethod() == null || f.getMethod().getType() == null ? null : f.getMethod().getType().getName();
        }

        @Override
        public String methodName() {
            return f.getMethod() == null ? null : f.getMethod().getName();
        }

        @Override
        public int lineNumber() {
            return f.getLineNumber();
        }
    }
}
