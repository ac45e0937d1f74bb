package io.hopscope.agent.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Runs a test app's scenarios under the agent, one request each, with extra libraries on its class path. */
public final class AppRuns {

    private AppRuns() {
    }

    /** The jars (or directories) of this JVM's class path that hold {@code classes}, as a class path. */
    public static String classPathOf(List<Class<?>> classes) throws Exception {
        List<String> jars = new ArrayList<>();
        for (Class<?> c : classes) {
            jars.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return String.join(File.pathSeparator, jars);
    }

    /** The requests of {@code app}'s scenarios, in order, each checked ok at its boundary {@code app#request}. */
    public static List<Requests.Request> run(String java, String app, List<Class<?>> libraries, String... scenarios)
            throws Exception {
        String classPath = System.getProperty("hopscope.test.classes")
                + (libraries.isEmpty() ? "" : File.pathSeparator + classPathOf(libraries));
        String boundary = app + "#request";
        List<String> args = new ArrayList<>(List.of("-cp", classPath, app));
        args.addAll(List.of(scenarios));
        AgentRun run = AgentRun.run(java, "jfr=%JFR%,requests=" + boundary, args);
        List<Requests.Request> requests = new ArrayList<>(run.cleanRequests(scenarios.length).values());
        requests.sort(Comparator.comparing(r -> r.request.getStartTime()));
        assertThat(requests).as("requests of %s; stdout %s", java, run.stdout).hasSize(scenarios.length);
        for (Requests.Request r : requests) {
            r.assertOk(boundary);
        }
        return requests;
    }
}
