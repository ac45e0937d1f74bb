package io.hopscope.analyzer.command;

import io.hopscope.analyzer.Hopscope;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Finds the agent jar for {@code attach} and {@code record}: {@code --agent}, or where {@code demo} looks. */
final class AgentJar {

    private AgentJar() {
    }

    /** {@code given} if not null, else agent/target/hopscope-agent.jar of this jar's repository or the working dir. */
    static Path find(Path given, String command) throws CliProblem {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw new CliProblem(command + ": " + given + ": no such agent jar (--agent)");
            }
            return given.toAbsolutePath().normalize();
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
        try {
            Path self = Path.of(Hopscope.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // analyzer/target/hopscope.jar or analyzer/target/classes -> the repository root
            Path up = self.getParent() != null && self.getParent().getParent() != null
                    ? self.getParent().getParent().getParent() : null;
            if (up != null) {
                candidates.add(up.toAbsolutePath().normalize());
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // No code source (unusual class loader): the working directory only.
        }
        candidates.add(Path.of("").toAbsolutePath().normalize());
        return candidates;
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
                if (part.startsWith("jfr=") && part.length() > 4) {
                    part = "jfr=" + Path.of(part.substring(4)).toAbsolutePath().normalize();
                    jfr = true;
                }
                parts.add(part);
            }
        }
        if (!jfr) {
            parts.add(0, "jfr=" + defaultJfr.toAbsolutePath().normalize());
        }
        return String.join(",", parts);
    }
}
