package io.hopscope.analyzer.read;

import io.hopscope.analyzer.model.ThreadRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import jdk.jfr.consumer.EventStream;
import io.hopscope.analyzer.read.chunk.DirectReader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Streams one recording's events of the given types to a handler, never holding them: the reading
 * primitive every pass of the analyzer (and later the eBPF and pictures code) is built on.
 *
 * <p>Two readers give the same events, flush points and times ({@link Reader}): the direct decoder
 * ({@link DirectReader}, chunks decoded in parallel) and the JDK's {@code EventStream.openFile} (the
 * reference), with only the wanted types subscribed, so events of other types are skipped by size
 * instead of parsed, unordered and with event objects reused (the handler must copy what it keeps).
 * {@link ChunkScan} runs first: the stream itself would silently read nothing from a non-recording or
 * stop at a truncated chunk. A recording whose JVM was killed, or whose last chunk is cut, is read by
 * the JDK's reader whichever is chosen: what it makes of a partial chunk is the reference.
 */
public final class JfrEvents {

    /** Which reader decodes the recording: {@code --reader}. */
    public enum Reader {
        /** The direct decoder of the chunk format, chunks in parallel. */
        direct,
        /** The JDK's {@code jdk.jfr.consumer}: the reference. */
        jdk
    }

    private Reader reader = Reader.direct;
    private Consumer<String> notices = System.err::println;
    private int threads = Runtime.getRuntime().availableProcessors();

    // Passes over a recording's events begun in this JVM: one pass feeds every consumer, and a test holds
    // each command to it (a recording read twice costs twice).
    private static final AtomicLong PASSES = new AtomicLong();

    private final Map<Long, ThreadRef> threadsById = new HashMap<>();
    private final Map<JfrThread, ThreadRef> byObject = new java.util.IdentityHashMap<>();

    /**
     * Reads with {@code reader}; a file the direct reader cannot read is read with the JDK's, and
     * {@code notices} told so in one line (once the JDK's reader has read it: a file both refuse is
     * refused in the JDK's words).
     */
    public JfrEvents reader(Reader reader, Consumer<String> notices) {
        this.reader = reader;
        this.notices = notices;
        return this;
    }

    /** The direct reader's decoding threads (default: the available processors). */
    public JfrEvents threads(int threads) {
        this.threads = Math.max(1, threads);
        return this;
    }

    /**
     * Reads {@code file}, calling {@code handler} for each event whose type is in {@code eventNames}.
     * Returns the header scan (its {@code truncated} says only the complete chunks were read).
     */
    public ChunkScan.Result stream(Path file, Collection<String> eventNames, Consumer<? super JfrEvent> handler)
            throws RecordingProblem {
        Map<String, Consumer<? super JfrEvent>> handlers = new java.util.LinkedHashMap<>();
        eventNames.forEach(n -> handlers.put(n, handler));
        return stream(file, handlers);
    }

    /** Like {@link #stream(Path, Collection, Consumer)} with one handler per event type (no dispatch on the name). */
    public ChunkScan.Result stream(Path file, Map<String, ? extends Consumer<? super JfrEvent>> handlers) throws RecordingProblem {
        return stream(file, handlers, null);
    }

    /**
     * Like {@link #stream(Path, Map)}, and calls {@code onFlush} (when not null) at each flush point
     * and chunk end of the file: every event the JVM had committed by then has been handed over, which
     * is what lets a single pass finish the requests that ended well before it. A recording whose JVM
     * was killed is read without flush points (the JDK's file stream cannot read it).
     */
    public ChunkScan.Result stream(Path file, Map<String, ? extends Consumer<? super JfrEvent>> handlers, Runnable onFlush)
            throws RecordingProblem {
        return stream(file, ChunkScan.scan(file), handlers, onFlush);
    }

    /** Like {@link #stream(Path, Map, Runnable)}, with the file's headers scanned already ({@code scan}). */
    public ChunkScan.Result stream(Path file, ChunkScan.Result scan, Map<String, ? extends Consumer<? super JfrEvent>> handlers,
                                   Runnable onFlush) throws RecordingProblem {
        if (scan.unfinished()) {
            return readUnfinished(file, scan, handlers);
        }
        if (reader == Reader.direct && !scan.truncated()) {
            String unreadable = readDirect(file, handlers, onFlush);
            if (unreadable == null) {
                return scan;
            }
            PASSES.decrementAndGet(); // nothing was handed over: the JDK's pass below is the one
            ChunkScan.Result read = streamWithJdk(file, scan, handlers, onFlush);
            notices.accept("warning: " + file + ": the direct reader cannot read it (" + unreadable + "), read it with"
                    + " the jdk's (--reader jdk)");
            return read;
        }
        return streamWithJdk(file, scan, handlers, onFlush);
    }

    // Null once read; the reason when the direct reader cannot read the file and handed nothing over.
    private String readDirect(Path file, Map<String, ? extends Consumer<? super JfrEvent>> handlers, Runnable onFlush)
            throws RecordingProblem {
        PASSES.incrementAndGet();
        try {
            DirectReader.read(file, ChunkScan.uniqueChunks(file), handlers, onFlush, threads);
            return null;
        } catch (DirectReader.Unreadable e) {
            return e.getMessage();
        } catch (DirectReader.Malformed e) {
            throw new RecordingProblem(file + ": malformed recording: " + e.getMessage() + " (--reader jdk may read"
                    + " what comes before it)", e);
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read recording: " + lower(e.getMessage()), e);
        } catch (RuntimeException | InternalError e) {
            throw malformedOr(file, e);
        }
    }

    private ChunkScan.Result streamWithJdk(Path file, ChunkScan.Result scan, Map<String, ? extends Consumer<? super JfrEvent>> handlers,
                                           Runnable onFlush) throws RecordingProblem {
        if (scan.duplicateChunks() > 0) {
            Path copy = null;
            try {
                copy = Files.createTempFile("hopscope-chunks-", ".jfr");
                ChunkScan.writeWithoutDuplicates(file, copy);
                stream(file, copy, handlers, onFlush);
            } catch (IOException e) {
                throw new RecordingProblem(file + ": cannot copy its chunks without the repeated ones to a temporary"
                        + " file: " + lower(e.getMessage()), e);
            } finally {
                if (copy != null) {
                    copy.toFile().delete();
                }
            }
            return scan;
        }
        stream(file, file, handlers, onFlush);
        return scan;
    }

    /** Passes over a recording's events begun in this JVM so far (headers only, {@link ChunkScan}, are not one). */
    public static long passes() {
        return PASSES.get();
    }

    // Reads source; messages name file (they differ when repeated chunks were left out of a copy).
    private static void stream(Path file, Path source, Map<String, ? extends Consumer<? super JfrEvent>> handlers, Runnable onFlush)
            throws RecordingProblem {
        PASSES.incrementAndGet();
        try (EventStream es = EventStream.openFile(source)) {
            // Unordered: the JDK sorts each flush segment otherwise, holding all its events at once;
            // the analyzer only needs flush points as barriers. Reused event objects: no garbage per event.
            es.setOrdered(false);
            es.setReuse(true);
            JdkEvent view = new JdkEvent();
            handlers.forEach((name, handler) -> es.onEvent(name, view.feeding(handler)));
            if (onFlush != null) {
                es.onFlush(onFlush);
            }
            es.start();
        } catch (IOException e) {
            throw new RecordingProblem(file + ": cannot read recording: " + lower(e.getMessage()), e);
        } catch (RuntimeException | InternalError e) {
            throw malformedOr(file, e);
        }
    }

    /**
     * The JDK parser reports malformed data as unchecked exceptions of any kind (a flipped byte gave
     * a NullPointerException inside jdk.jfr.internal.consumer): those, and the ones a handler meets
     * reading a malformed event's fields, are a malformed recording; anything else is rethrown.
     */
    private static RuntimeException malformedOr(Path file, Throwable e) throws RecordingProblem {
        if (e instanceof IllegalArgumentException || e instanceof IllegalStateException
                || e instanceof IndexOutOfBoundsException || e instanceof ClassCastException || fromParser(e)) {
            String what = e.getMessage() != null ? lower(e.getMessage())
                    : fromParser(e) ? parserFailure(e) : "an event's fields could not be read";
            throw new RecordingProblem(file + ": malformed recording: " + what, e);
        }
        if (e instanceof RuntimeException) {
            return (RuntimeException) e;
        }
        throw (Error) e;
    }

    /**
     * A failure of the JDK's parser without a message (a NullPointerException in its metadata
     * reader, for a flipped byte in a type's name), by where it failed: the place says what part
     * of the file is broken; the exception's class would read as the analyzer's own crash.
     */
    static String parserFailure(Throwable e) {
        for (StackTraceElement frame : e.getStackTrace()) {
            String c = frame.getClassName();
            if (c.startsWith("jdk.jfr.") && !frame.getMethodName().startsWith("<")) {
                return "the JDK's JFR parser failed in " + c.substring(c.lastIndexOf('.') + 1) + "." + frame.getMethodName();
            }
        }
        return "the JDK's JFR parser failed on it";
    }

    private static boolean fromParser(Throwable e) {
        StackTraceElement[] stack = e.getStackTrace();
        if (stack.length == 0) {
            // HotSpot throws a preallocated exception without a stack once a site has thrown often
            // (OmitStackTraceInFastThrow): while a file is parsed, the parser is the likely thrower.
            return true;
        }
        for (int i = 0; i < Math.min(4, stack.length); i++) {
            if (stack[i].getClassName().startsWith("jdk.jfr.")) {
                return true;
            }
        }
        return false;
    }

    // EventStream treats an unfinished chunk as live and waits for the rest forever; RecordingFile
    // reads what was flushed (it parses every event, slower, but this is the rare case).
    private static ChunkScan.Result readUnfinished(Path file, ChunkScan.Result scan,
                                                   Map<String, ? extends Consumer<? super JfrEvent>> handlers) throws RecordingProblem {
        long read = 0;
        PASSES.incrementAndGet();
        JdkEvent view = new JdkEvent();
        Map<String, Consumer<RecordedEvent>> adapted = new HashMap<>();
        handlers.forEach((name, handler) -> adapted.put(name, view.feeding(handler)));
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                read++;
                Consumer<RecordedEvent> h = adapted.get(e.getEventType().getName());
                if (h != null) {
                    h.accept(e);
                }
            }
        } catch (RuntimeException | InternalError e) {
            throw malformedOr(file, e);
        } catch (IOException e) {
            if (read == 0) {
                throw new RecordingProblem(file + ": unfinished recording (jvm killed or still recording) with nothing "
                        + "readable: " + lower(e.getMessage()), e);
            }
            // The tail after the last flush is cut: what was read stands, the caller warns.
        }
        return new ChunkScan.Result(scan.completeChunks(), scan.readableBytes(), scan.fileBytes(), scan.major(),
                scan.minor(), scan.truncated(), true, scan.startEpochNanos(), scan.endEpochNanos(), scan.duplicateChunks());
    }

    /** Epoch nanoseconds of an Instant (JFR's clock for every event). */
    public static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** A thread of an event, interned so that every event of a thread shares one {@link ThreadRef}; null for null. */
    public ThreadRef thread(JfrThread t) {
        if (t == null) {
            return null;
        }
        // Each reader gives one object for a thread within a chunk (its constant pool): remember the
        // object, not just the id.
        ThreadRef seen = byObject.get(t);
        if (seen != null) {
            return seen;
        }
        long javaId = t.javaThreadId();
        ThreadRef known = threadsById.get(javaId);
        String name = t.javaName() != null ? t.javaName() : t.osName();
        ThreadRef ref = known;
        if (known == null || !java.util.Objects.equals(known.name(), name)) {
            // A new thread, or a renamed one: keep the latest name. JDK 21+ recordings say whether
            // a thread is virtual.
            ref = new ThreadRef(javaId, t.osThreadId(), name, t.isVirtual());
            if (threadsById.size() > 100_000) {
                // A thread per task (virtual threads) for days of a live stream: forget them all at once, as
                // byObject below; a thread seen again is a new but equal ThreadRef.
                threadsById.clear();
            }
            threadsById.put(javaId, ref);
        }
        if (byObject.size() > 100_000) {
            byObject.clear(); // objects of past chunks; bounded whatever the number of chunks
        }
        byObject.put(t, ref);
        return ref;
    }

    // Reads by name, of the few fields outside the agent's hot events (those are read by position,
    // EventFields). A field of another type than expected reads as absent.

    public static String string(JfrEvent e, String field) {
        return e.value(field) instanceof String s ? s : null;
    }

    public static long longField(JfrEvent e, String field, long absent) {
        Object v = e.value(field);
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                ? ((Number) v).longValue() : absent;
    }

    public static int intField(JfrEvent e, String field, int absent) {
        Object v = e.value(field);
        return v instanceof Integer || v instanceof Short || v instanceof Byte ? ((Number) v).intValue() : absent;
    }

    public static boolean booleanField(JfrEvent e, String field) {
        return e.value(field) instanceof Boolean b && b;
    }

    /** The top {@code depth} frames, one a line, as {@code Class.method:line}. */
    public static String stack(JfrStack st, int depth) {
        if (st == null) {
            return "";
        }
        List<JfrFrame> frames = st.frames();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < frames.size() && i < depth; i++) {
            if (i > 0) {
                sb.append('\n');
            }
            sb.append(frame(frames.get(i)));
        }
        return sb.toString();
    }

    public static String topFrame(JfrStack st) {
        if (st == null || st.frames().isEmpty()) {
            return "?";
        }
        return frame(st.frames().get(0));
    }

    /**
     * Whether a class is the JDK's own, by its package: {@code java.}, {@code javax.}, {@code jdk.},
     * {@code sun.} and {@code com.sun.}.
     */
    public static boolean isJdkType(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.");
    }

    /**
     * Where a thread waited, as {@code Class.method}: the first frame outside the JDK ({@link #isJdkType}:
     * {@code LockSupport.park}, the {@code java.util.concurrent} synchronizers, {@code Object.wait}), else
     * the top frame; "?" without a stack.
     */
    public static String firstApplicationFrame(JfrStack st) {
        if (st == null || st.frames().isEmpty()) {
            return "?";
        }
        JfrFrame first = null;
        for (JfrFrame f : st.frames()) {
            if (!f.hasMethod() || f.typeName() == null) {
                continue;
            }
            if (first == null) {
                first = f;
            }
            String type = f.typeName();
            if (!isJdkType(type)) {
                return type + "." + f.methodName();
            }
        }
        return first == null ? "?" : first.typeName() + "." + first.methodName();
    }

    public static String frame(JfrFrame f) {
        if (!f.hasMethod()) {
            return "?";
        }
        String type = f.typeName() != null ? f.typeName() : "?";
        int line = f.lineNumber();
        return type + "." + f.methodName() + (line > 0 ? ":" + line : "");
    }

    static String lower(String s) {
        if (s == null || s.isEmpty()) {
            return "unknown error";
        }
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
