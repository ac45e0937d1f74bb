package io.hopscope.agent.instrumentation.httpclient5;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.ClientApps;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.Requests;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import jdk.jfr.consumer.RecordedEvent;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import net.bytebuddy.utility.OpenedClassReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Apache HttpClient 5 classic relocated the way an SDK shades it (org.apache.hc, client and core,
 * moved under com.example.shaded, the app rewritten to use the copy, as the shade plugin would):
 * the same requests as on the original, named by the original's boundary, and AgentInfo names the
 * copy by where it went.
 */
class RelocatedHttpClient5IT {

    private static final String FROM = "org/apache/hc/";
    private static final String TO = "com/example/shaded/org/apache/hc/";

    private static Path jar;
    private static String otherLibraries;

    /** Relocates the build's httpclient5 and httpcore5 jars, and the app, into one jar. */
    @BeforeAll
    static void relocate() throws IOException {
        String libraries = Files.readString(Path.of(System.getProperty("hopscope.client.classpath"))).trim();
        jar = AgentRun.workDir().resolve("httpclient5-relocated.jar");
        List<String> others = new ArrayList<>();
        int relocated = 0;
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String entry : libraries.split(File.pathSeparator)) {
                String name = Path.of(entry).getFileName().toString();
                if (name.startsWith("httpclient5-") || name.startsWith("httpcore5-")) {
                    relocated++;
                    try (JarFile library = new JarFile(entry)) {
                        for (JarEntry e : library.stream().toList()) {
                            if (e.getName().startsWith(FROM) && !e.isDirectory()) {
                                try (InputStream in = library.getInputStream(e)) {
                                    write(out, TO + e.getName().substring(FROM.length()), in.readAllBytes());
                                }
                            }
                        }
                    }
                } else {
                    others.add(entry);
                }
            }
            Path apps = Path.of(System.getProperty("hopscope.test.classes"), "io", "hopscope", "testapps");
            try (var files = Files.list(apps)) {
                for (Path app : files.filter(p -> p.getFileName().toString().startsWith("HttpClient5App")).toList()) {
                    write(out, "io/hopscope/testapps/" + app.getFileName(), Files.readAllBytes(app));
                }
            }
        }
        assertThat(relocated).as("httpclient5 and httpcore5 jars in %s", libraries).isGreaterThanOrEqualTo(2);
        otherLibraries = String.join(File.pathSeparator, others);
    }

    private static void write(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(name.endsWith(".class") ? relocated(bytes) : bytes);
        out.closeEntry();
    }

    /** The class file with every class of org.apache.hc it names renamed under com.example.shaded. */
    private static byte[] relocated(byte[] classFile) {
        Remapper remapper = new Remapper(OpenedClassReader.ASM_API) {
            @Override
            public String map(String internalName) {
                return internalName.startsWith(FROM) ? TO + internalName.substring(FROM.length()) : internalName;
            }
        };
        ClassWriter writer = new ClassWriter(0);
        OpenedClassReader.of(classFile).accept(new ClassRemapper(writer, remapper), 0);
        return writer.toByteArray();
    }

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void theRelocatedCopysExecuteIsARequestOnTheCallersThread(String java) throws Exception {
        int ok = 4;
        // The relocated app first: it stands in for the original in the test classes after it.
        String classPath = String.join(File.pathSeparator, jar.toString(), System.getProperty("hopscope.test.classes"),
                otherLibraries);
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,spanthreshold=0",
                List.of("-cp", classPath, "io.hopscope.testapps.HttpClient5App", Integer.toString(ok)));
        assertThat(run.stdout).as("stdout on %s; stderr %s", java, run.stderr).contains("responses ok: " + ok + ", failed: 1");
        // The app's in-process JDK server answers as inbound requests of its own: the calls are checked here.
        List<Requests.Request> requests = new ArrayList<>(Requests.outbound(run.cleanRequests(ok + 1)).values());
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(requests).as("requests on %s", java).hasSize(ok + 1);
        for (int i = 0; i < requests.size(); i++) {
            Requests.Request r = requests.get(i);
            String what = Handovers.jdk(java) + " request " + i + " " + ClientApps.describe(r);
            if (i < ok) {
                ClientApps.assertHello(r, HttpClient5IT.BOUNDARY);
            } else {
                ClientApps.assertRefused(r, HttpClient5IT.BOUNDARY);
                assertThat(r.request.getString("error"))
                        .isEqualTo("com.example.shaded.org.apache.hc.client5.http.HttpHostConnectException");
            }
            assertThat(r.hops).as(what).isEmpty();
            assertThat(r.threads()).as(what).hasSize(1);
        }
        List<RecordedEvent> infos = run.events().stream()
                .filter(e -> e.getEventType().getName().equals("hopscope.AgentInfo")).toList();
        assertThat(latest(infos).getString("instrumentations").split(";")).as("on %s", java)
                .contains("httpclient5@com.example.shaded.org.apache.hc.client5")
                .doesNotContain("httpclient5");
    }

    // The chunk end's AgentInfo names the copies found during the chunk; a recording gives events in
    // the order their buffers were written, not in time order, so it is the latest by time.
    private static RecordedEvent latest(List<RecordedEvent> infos) {
        return infos.stream().max(Comparator.comparing(RecordedEvent::getStartTime)).orElseThrow();
    }
}
