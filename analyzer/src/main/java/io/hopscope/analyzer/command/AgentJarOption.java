package io.hopscope.analyzer.command;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --agent JAR}: the agent jar of the commands that load it (attach, live, record; {@code @Mixin} it). */
public final class AgentJarOption {

    @Option(names = "--agent", paramLabel = "JAR",
            description = "The agent jar (default: agent/target/hopscope-agent.jar of this jar's repository or the"
                    + " working directory).")
    Path jar;

    /** The jar given, else the one {@link AgentJar#find} finds; a problem names the command. */
    Path find(String command) throws CliProblem {
        return AgentJar.find(jar, command);
    }
}
