package io.hopscope.analyzer.command;

import io.hopscope.analyzer.Hopscope;
import io.hopscope.settings.AgentOption;
import io.hopscope.settings.AgentOptions;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Finds the agent jar for {@code attach}, {@code live} and {@code record}: {@code --agent}, or where {@code demo} looks. */
final class AgentJar {

    private AgentJar() {
    }

    /** The agent's file name beside the CLI's in the release archive's lib/ (scripts/dist.sh). */
    static final String RELEASE_AGENT_JAR = "hopscope-agent.jar";

    /**
     * {@code given} if not null, else hopscope-agent.jar beside this jar (the release archive's lib/),
     * else agent/target/hopscope-agent.jar of this jar's repository or the working dir.
     */
    static Path find(Path given, String command) throws CliProblem {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new CliProblem(command + ": " + given + ": no such agent jar (--agent)");
            }
            return given.toAbsolutePath().normalize();
        }
        Path self = selfJar();
        if (self != null && self.getParent() != null && Files.isRegularFile(self.getParent().resolve(RELEASE_AGENT_JAR))) {
            return self.getParent().resolve(RELEASE_AGENT_JAR).toAbsolutePath().normalize();
        }
        List<String> looked = new ArrayList<>();
        for (Path c : repositoryRoots()) {
            Path jar = c.resolve(DemoCommand.AGENT_JAR);
            if (Files.isRegularFile(jar)) {
                return jar;
            }
            looked.add(c.toString());
        }
        throw new CliProblem(command + ": " + DemoCommand.AGENT_JAR + " not found under " + String.join(" or ", looked)
                + "; build it with 'make build' or give --agent PATH");
    }

    /**
     * Where a repository built with {@code make build} may be: the one this jar was built in
     * (analyzer/target/), then the working directory.
     */
    static Set<Path> repositoryRoots() {
        Set<Path> candidates = new LinkedHashSet<>();
        Path self = selfJar();
        // analyzer/target/hopscope.jar or analyzer/target/classes -> the repository root
        Path up = self != null && self.getParent() != null && self.getParent().getParent() != null
                ? self.getParent().getParent().getParent() : null;
        if (up != null) {
            candidates.add(up.toAbsolutePath().normalize());
        }
        candidates.add(Path.of("").toAbsolutePath().normalize());
        return candidates;
    }

    /** This CLI's jar (or classes folder), or null without a code source (an unusual class loader). */
    private static Path selfJar() {
        try {
            return Path.of(Hopscope.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }

    /**
     * The folder that holds bpf/ beside an agent jar: the release archive's (the jar in its lib/) or the
     * repository's (agent/target/).
     */
    static Path rootOf(Path agentJar) {
        Path dir = agentJar.toAbsolutePath().getParent();
        return dir.getFileName() != null && dir.getFileName().toString().equals("lib") ? dir.getParent()
                : dir.getParent().getParent();
    }

    /**
     * The agent reports a bad option on the target's stderr, where the user of hopscope does not
     * look, and goes on without it: the same check says it here instead, before anything is loaded.
     */
    static void checkOptions(String options, String command) throws CliProblem {
        List<String> problems = new ArrayList<>();
        AgentOptions.parse(options, problems::add);
        if (!problems.isEmpty()) {
            // The agent's line without what the agent would do about it ("; ignored").
            String problem = problems.get(0).replaceFirst("^hopscope: ", "");
            int consequence = problem.indexOf("; ");
            throw new CliProblem(command + ": agent " + (consequence < 0 ? problem : problem.substring(0, consequence))
                    + " (for example requests=com.example.Api#call; all of them: docs/agent.md)");
        }
    }

    /**
     * The agent options with {@code jfr=} made absolute against this working directory (the
     * target's own may differ), or {@code jfr=defaultJfr} added when there is none.
     */
    static String withAbsoluteJfr(String options, Path defaultJfr) {
        List<String> parts = new ArrayList<>();
        boolean jfr = false;
        if (options != null && !options.isBlank()) {
            for (String part : options.split(",")) {
                String path = AgentOption.JFR.isSetBy(part) ? AgentOptions.parse(part, p -> { }).jfrPath() : null;
                if (path != null) {
                    part = AgentOption.JFR.key() + "=" + Path.of(path).toAbsolutePath().normalize();
                    jfr = true;
                }
                parts.add(part);
            }
        }
        if (!jfr) {
            parts.add(0, AgentOption.JFR.key() + "=" + defaultJfr.toAbsolutePath().normalize());
        }
        return String.join(",", parts);
    }
}
