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

    /** The requests of {@code app}'s scenarios, in order, each checked ok at its boundary {@code app#request}. */
    public static List<Requests.Request> run(String java, String app, List<Class<?>> libraries, String... scenarios)
            throws Exception {
        List<String> classPath = new ArrayList<>(List.of(System.getProperty("hopscope.test.classes")));
        for (Class<?> library : libraries) {
            classPath.add(Path.of(library.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        String boundary = app + "#request";
        List<String> args = new ArrayList<>(List.of("-cp", String.join(File.pathSeparator, classPath), app));
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
