package io.hopscope.analyzer.command;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The running JVM that {@code attach} and {@code live} reach through the attach API: its PID
 * checked first, each problem in one line, because the attach handshake sends SIGQUIT to the
 * process, which ends most programs that are not a JVM.
 */
final class AttachTarget {

    private AttachTarget() {
    }

    /** The PID as a number. */
    static long parse(String pid, String command) throws CliProblem {
        try {
            long id = Long.parseLong(pid);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new CliProblem(command + ": PID must be a process id (a number), got '" + pid + "'");
    }

    /** Refuses a process that is gone, this one, another user's, not a JVM, or a JVM that refuses attach. */
    static void check(long id, String command) throws CliProblem {
        Optional<ProcessHandle> process = ProcessHandle.of(id);
        if (process.isEmpty() || !process.get().isAlive()) {
            throw new CliProblem(command + ": no process with PID " + id + " (it has ended, or never was)");
        }
        if (id == ProcessHandle.current().pid()) {
            throw new CliProblem(command + ": PID " + id + " is this hopscope process; give the PID of the JVM to profile");
        }
        ProcessHandle.Info info = process.get().info();
        String me = System.getProperty("user.name");
        Optional<String> owner = info.user();
        if (owner.isPresent() && !owner.get().equals(me) && !"root".equals(me)) {
            throw new CliProblem(command + ": PID " + id + " belongs to user " + owner.get() + "; the attach API reaches"
                    + " only the same user's JVMs: run hopscope as " + owner.get());
        }
        if (!isJvm(id)) {
            throw new CliProblem(command + ": PID " + id + " (" + info.command().orElse("?") + ") is not a JVM");
        }
        if (info.arguments().map(a -> List.of(a).contains("-XX:+DisableAttachMechanism")).orElse(false)) {
            throw new CliProblem(command + ": PID " + id + " refuses attach (-XX:+DisableAttachMechanism); restart it"
                    + " without that flag, or with -javaagent (see hopscope record)");
        }
    }

    static VirtualMachine attach(long id, String command) throws CliProblem {
        try {
            return VirtualMachine.attach(Long.toString(id));
        } catch (AttachNotSupportedException | IOException e) {
            throw new CliProblem(command + ": cannot attach to PID " + id + " (" + e.getMessage() + "); is it a HotSpot"
                    + " JVM of this user, started without -XX:+DisableAttachMechanism?");
        }
    }

    /** Whether the process runs a JVM: its memory maps hold libjvm (Linux), else the attach API lists it. */
    static boolean isJvm(long id) {
        Path maps = Path.of("/proc", Long.toString(id), "maps");
        if (Files.isReadable(maps)) {
            try (var lines = Files.lines(maps)) {
                return lines.anyMatch(l -> l.endsWith("/libjvm.so"));
            } catch (IOException | java.io.UncheckedIOException e) {
                // Unreadable after all (another user's process): ask the attach API below.
            }
        }
        return VirtualMachine.list().stream().anyMatch(d -> d.id().equals(Long.toString(id)));
    }
}
