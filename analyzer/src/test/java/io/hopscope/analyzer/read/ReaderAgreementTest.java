package io.hopscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.analyzer.testing.KnownPathRecording;
import io.hopscope.analyzer.testing.Paths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The direct decoder hands over what the JDK's reader hands over, event for event and in the same order,
 * with the same flush points: every field of every event type the analyzer reads (the fields the JDK's
 * reader lists, plus one no type has), times, threads, stacks. Over a recording of the agent's events
 * made here, and the recordings of other JVMs in the corpus.
 */
class ReaderAgreementTest {

    @TempDir
    Path dir;

    @Test
    void theAgentsEventsReadAlike() throws Exception {
        Path file = dir.resolve("known.jfr");
        KnownPathRecording.write(file, 3, 5);
        assertReadAlike(file);
    }

    @Test
    void theCorpusReadsAlike() throws Exception {
        for (String name : List.of("jdk15.jfr", "jdk21.jfr", "openjdk8u292.jfr", "crash_jdk9.jfr")) {
            assertReadAlike(Paths.corpus().resolve(name));
        }
    }

    @Test
    void chunksWhoseHeadersDriftReadAlike() throws Exception {
        assertReadAlike(Paths.moduleDir().resolve("src/test/resources/chunks/drift-jdk17.jfr"));
    }

    @Test
    void aFileOfAnotherProfilerReadsAlike() throws Exception {
        assertReadAlike(Paths.moduleDir().resolve("src/test/resources/fuzz/async-profiler.jfr"));
    }

    @Test
    void stringsOfEveryEncodingReadAlike() throws Exception {
        // Java events write their strings as chars (one varint each), a repeated string of 16 to 128 chars
        // through the string pool; HotSpot writes thread names and symbols as UTF-8 or Latin-1.
        Path file = dir.resolve("strings.jfr");
        String[] names = {null, "", "GET /plain", "naïve café", "日本語のリクエスト", "emoji \uD83D\uDE00 end",
            "a name of forty characters, repeated...", "a name of forty characters, repeated...", "x".repeat(300)};
        Thread writer = new Thread(() -> {
            for (int i = 0; i < names.length; i++) {
                io.hopscope.analyzer.testing.ContractEvents.Request r = new io.hopscope.analyzer.testing.ContractEvents.Request();
                r.begin();
                r.requestId = i + 1;
                r.name = names[i];
                r.url = names[names.length - 1 - i];
                r.startThread = Thread.currentThread();
                r.commit();
            }
        }, "wörker-日本");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(io.hopscope.analyzer.testing.ContractEvents.Request.class);
            recording.start();
            writer.start();
            writer.join();
            recording.stop();
            recording.dump(file);
        }
        assertReadAlike(file);
    }

    static void assertReadAlike(Path file) throws Exception {
        Set<String> types = new LinkedHashSet<>(HopscopeContract.EVENTS.keySet());
        types.addAll(HopscopeContract.JDK_EVENTS);
        types.addAll(List.of(HopscopeContract.EXECUTION_SAMPLE, HopscopeContract.NATIVE_METHOD_SAMPLE,
                HopscopeContract.PROFILER_WALL_CLOCK_SAMPLE, HopscopeContract.THREAD_START, HopscopeContract.THREAD_END,
                HopscopeContract.CPU_LOAD, HopscopeContract.THREAD_STATISTICS, HopscopeContract.GARBAGE_COLLECTION,
                HopscopeContract.GC_PHASE_PAUSE));
        Map<String, List<String>> fields = new LinkedHashMap<>();
        List<String> jdk = read(file, types, JfrEvents.Reader.jdk, fields);
        List<String> direct = read(file, types, JfrEvents.Reader.direct, fields);
        assertThat(jdk).as(file + " has events").hasSizeGreaterThan(2);
        for (int i = 0; i < Math.min(jdk.size(), direct.size()); i++) {
            assertThat(direct.get(i)).as(file + ": event " + i + " of " + jdk.size()).isEqualTo(jdk.get(i));
        }
        assertThat(direct).as(file.toString()).hasSameSizeAs(jdk);
    }

    private static List<String> read(Path file, Set<String> types, JfrEvents.Reader reader,
                                     Map<String, List<String>> fields) throws Exception {
        List<String> lines = new ArrayList<>();
        List<String> notices = new ArrayList<>();
        Map<String, Consumer<JfrEvent>> handlers = new LinkedHashMap<>();
        for (String type : types) {
            handlers.put(type, e -> lines.add(render(e, fields)));
        }
        new JfrEvents().reader(reader, notices::add).stream(file, handlers, () -> lines.add("flush"));
        assertThat(notices).as(file + " read by " + reader).isEmpty();
        return lines;
    }

    private static String render(JfrEvent e, Map<String, List<String>> fields) {
        if (e instanceof JdkEvent j) {
            fields.computeIfAbsent(e.typeName(), t -> {
                List<String> names = new ArrayList<>(j.recorded().getFields().stream().map(ValueDescriptor::getName).toList());
                names.add("noSuchField");
                return names;
            });
        }
        StringBuilder sb = new StringBuilder(e.typeName()).append(' ').append(e.startNanos()).append(' ')
                .append(e.endNanos()).append(' ').append(e.durationNanos()).append(" thread=").append(thread(e.thread()))
                .append(" stack=").append(stack(e.stackTrace()));
        for (String name : fields.getOrDefault(e.typeName(), List.of())) {
            sb.append(' ').append(name).append('=').append(e.hasField(name)).append(':');
            if (name.equals("startTime") || name.equals("duration")) {
                continue;
            }
            sb.append(value(e.value(name)));
        }
        if (e.hasField("sumOfPauses")) {
            sb.append(" sumOfPauses=").append(e.timespanNanos("sumOfPauses", -7));
        }
        return sb.toString();
    }

    private static String value(Object v) {
        if (v instanceof JfrThread t) {
            return thread(t);
        }
        if (v instanceof JfrClass c) {
            return "class " + c.name();
        }
        if (v instanceof JfrStack s) {
            return stack(s);
        }
        if (v == null || v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof Character) {
            return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
        }
        return "object"; // a struct: each reader has its own kind of object
    }

    private static String thread(JfrThread t) {
        return t == null ? "null" : t.javaThreadId() + "/" + t.osThreadId() + "/" + t.javaName() + "/" + t.osName() + "/"
                + t.isVirtual();
    }

    private static String stack(JfrStack s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(s.isTruncated() ? "truncated[" : "[");
        for (JfrFrame f : s.frames()) {
            sb.append(f.hasMethod()).append(' ').append(f.typeName()).append('.').append(f.methodName()).append(':')
                    .append(f.lineNumber()).append(';');
        }
        return sb.append(']').toString();
    }
}
