package io.hopscope.analyzer.command;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;
import io.hopscope.settings.AttachProperties;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hopscope attach}: loads the agent into a running JVM through the attach API, or with
 * {@code --stop} saves its recording and stops it through the target's FlightRecorderMXBean.
 */
@Command(name = "attach", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Loads the hopscope agent into a running JVM (same user, attach not disabled) and starts its"
                + " recording; classes already loaded are retransformed, so requests that start from now on are"
                + " followed. AGENT_OPTIONS are those of -javaagent:hopscope-agent.jar=OPTIONS; without jfr= the"
                + " recording goes to hopscope-PID.jfr in this directory. Attaching again only says that it records.",
                "With --stop: saves the recording to FILE and stops it (through the JVM's local JMX agent, which this"
                + " starts); the instrumentation stays, inert.",
                "",
                "Example: hopscope attach 4242 requests=com.example.Api#call",
                "         hopscope attach 4242 --stop -o app.jfr && hopscope report app.jfr"})
public final class AttachCommand implements Callable<Integer> {

    /** The agent's jfr= recording's name (AgentInstaller.startRecording). */
    static final String RECORDING_NAME = "hopscope";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "PID", description = "The process id of a running JVM.")
    String pid;

    @Parameters(index = "1", arity = "0..1", paramLabel = "AGENT_OPTIONS",
            description = "Agent options, key=value,... (see docs/agent.md), e.g. requests=com.example.Api#call.")
    String agentOptions;

    @Option(names = "--stop", description = "Save the agent's recording to -o FILE and stop it.")
    boolean stop;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Where --stop saves the recording (- is stdout).")
    Path output;

    @Mixin
    AgentJarOption agent;

    @Override
    public Integer call() throws Exception {
        if (stop && output == null) {
            throw new ParameterException(spec.commandLine(), "--stop needs -o FILE");
        }
        if (stop && agentOptions != null) {
            throw new ParameterException(spec.commandLine(), "--stop takes no AGENT_OPTIONS");
        }
        if (!stop && output != null) {
            throw new ParameterException(spec.commandLine(), "-o goes with --stop");
        }
        long id = AttachTarget.parse(pid, "attach");
        AgentJar.checkOptions(agentOptions, "attach");
        AttachTarget.check(id, "attach");
        Path jar = stop ? null : agent.find("attach");
        VirtualMachine vm = AttachTarget.attach(id, "attach");
        try {
            return stop ? stop(vm, id) : load(vm, id, jar);
        } finally {
            vm.detach();
        }
    }

    private int load(VirtualMachine vm, long id, Path jar) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Properties before = vm.getSystemProperties();
        if (before.getProperty(AttachProperties.STARTED) != null) {
            Optional<RecordingInfo> recording = withFlightRecorder(vm, id, (jfr, r) -> r);
            if (recording.isEmpty() || !"RUNNING".equals(recording.get().getState())) {
                throw new CliProblem("attach: the hopscope agent is already in PID " + id + " but its recording is not"
                        + " running (stopped with --stop?); an agent starts once per JVM: restart the JVM to record again");
            }
            out.println("attach: the hopscope agent is already recording in PID " + id + " to "
                    + before.getProperty(AttachProperties.RECORDING, recording.get().getDestination()) + "; nothing done");
            return 0;
        }
        String options = AgentJar.withAbsoluteJfr(agentOptions, Path.of("hopscope-" + id + ".jfr"));
        try {
            vm.loadAgent(jar.toString(), options);
        } catch (AgentLoadException | AgentInitializationException | IOException e) {
            throw new CliProblem("attach: PID " + id + " did not load " + jar + ": " + e.getMessage());
        }
        Properties after = vm.getSystemProperties();
        if (after.getProperty(AttachProperties.STARTED) == null) {
            throw new CliProblem("attach: the agent did not start in PID " + id + "; its reason is on that process's stderr");
        }
        String recording = after.getProperty(AttachProperties.RECORDING);
        if (recording == null) {
            throw new CliProblem("attach: the agent is in PID " + id + " but started no recording ("
                    + options.split(",")[0] + "); its reason is on that process's stderr");
        }
        out.println("attach: recording PID " + id + " to " + recording + " (save and stop it: hopscope attach " + id
                + " --stop -o FILE; or it is written when the JVM exits)");
        String skipped = after.getProperty(AttachProperties.SKIPPED);
        if (skipped != null) {
            out.println("attach: " + skipped + " cannot apply late (it adds a field): only classes loaded from now on"
                    + " get it, see docs/agent.md");
        }
        String shallow = after.getProperty(AttachProperties.SHALLOW_STACKS);
        if (shallow != null) {
            out.println("attach: stacks in this recording are cut at JFR's depth (64 frames by default): the JVM's"
                    + " flag -XX:FlightRecorderOptions=stackdepth=2048 is read at start only, so restart PID " + id
                    + " with it for whole stacks (" + shallow.replaceFirst("^hopscope: ", "") + ")");
        }
        return 0;
    }

    private int stop(VirtualMachine vm, long id) throws Exception {
        // -o -: the target JVM writes files only, so it saves to a temporary file that is then copied to stdout.
        boolean toStdout = Output.isStdout(output);
        Path file = toStdout ? Files.createTempFile("hopscope-" + id + "-", ".jfr") : output.toAbsolutePath().normalize();
        try {
            return stop(vm, id, file, toStdout);
        } finally {
            if (toStdout) {
                Files.deleteIfExists(file);
            }
        }
    }

    private int stop(VirtualMachine vm, long id, Path file, boolean toStdout) throws Exception {
        if (!Files.isDirectory(file.getParent())) {
            throw new CliProblem(output + ": cannot write the recording, its directory does not exist");
        }
        if (vm.getSystemProperties().getProperty(AttachProperties.STARTED) == null) {
            throw new CliProblem("attach: no hopscope agent in PID " + id + ", so no recording to stop;"
                    + " start one with: hopscope attach " + id);
        }
        Optional<String> saved = withFlightRecorder(vm, id, (jfr, r) -> {
            // Stopping a recording writes it to its destination (the agent's jfr= file until now),
            // once, and closes it: so FILE becomes the destination, then the recording stops.
            jfr.setRecordingOptions(r.getId(), Map.of("destination", file.toString()));
            jfr.stopRecording(r.getId());
            // JFR created the first destination empty when the agent set it: nothing was written there.
            if (r.getDestination() != null && !Path.of(r.getDestination()).equals(file)) {
                Path first = Path.of(r.getDestination());
                if (Files.isRegularFile(first) && Files.size(first) == 0) {
                    Files.delete(first);
                }
            }
            return file.toString();
        });
        if (saved.isEmpty()) {
            throw new CliProblem("attach: the hopscope agent is in PID " + id + " but has no running recording"
                    + " (already stopped?)");
        }
        if (!Files.isRegularFile(file)) {
            throw new CliProblem("attach: PID " + id + " did not write " + file + " (is it writable by that process?)");
        }
        if (toStdout) {
            // A recording is binary: straight to the process's stdout, not through the command line's writer.
            spec.commandLine().getOut().flush();
            Files.copy(file, System.out);
            System.out.flush();
            spec.commandLine().getErr().println("attach: wrote PID " + id + "'s recording to stdout and stopped it;"
                    + " the agent stays, inert");
            return 0;
        }
        spec.commandLine().getOut().println("attach: saved PID " + id + "'s recording to " + file
                + " and stopped it; the agent stays, inert");
        return 0;
    }

    /** What to do with the target's FlightRecorderMXBean and the agent's running recording. */
    interface RecordingAction<T> {
        T apply(FlightRecorderMXBean jfr, RecordingInfo recording) throws Exception;
    }

    /** Runs action on the agent's running recording, through the target's local JMX agent; empty when there is none. */
    static <T> Optional<T> withFlightRecorder(VirtualMachine vm, long id, RecordingAction<T> action) throws Exception {
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } catch (IOException e) {
            throw new CliProblem("attach: cannot start the JMX agent of PID " + id + ": " + e.getMessage());
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            FlightRecorderMXBean jfr = ManagementFactory.newPlatformMXBeanProxy(connector.getMBeanServerConnection(),
                    FlightRecorderMXBean.MXBEAN_NAME, FlightRecorderMXBean.class);
            List<RecordingInfo> running = jfr.getRecordings().stream()
                    .filter(r -> RECORDING_NAME.equals(r.getName()) && "RUNNING".equals(r.getState())).toList();
            if (running.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(action.apply(jfr, running.get(0)));
        }
    }
}
