package io.hopscope.analyzer.command;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JVMs {@code live --wait PATTERN} waits for: those whose main class or jar, as {@code jcmd -l} shows
 * it (the first word after the PID), or that jar's file name, matches {@code PATTERN} ({@code *} any
 * characters, {@code ?} one). On Linux they are found in {@code /proc}, from each process's command line,
 * because a sidecar container sees its pod's processes there (a shared process namespace) but not their
 * {@code /tmp}, where the attach API's own list looks; elsewhere that list is used.
 */
final class JvmPattern {

    // The java launcher's options that take their value as the next argument.
    private static final Set<String> WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p", "--module-path",
            "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens",
            "--patch-module", "--source", "--enable-native-access");

    // SIGQUIT's bit in /proc/PID/status's SigCgt: the JVM has installed its handler, which the attach
    // handshake's SIGQUIT needs (before that, the signal's default action ends the process).
    private static final long SIGQUIT_BIT = 1L << (3 - 1);

    private final String pattern;
    private final Pattern glob;

    JvmPattern(String pattern) {
        this.pattern = pattern;
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        this.glob = Pattern.compile(regex.toString());
    }

    @Override
    public String toString() {
        return pattern;
    }

    /** A JVM that matches: its PID, what jcmd -l would show first, and when it started. */
    record Match(long pid, String main, long startMillis) {
    }

    /**
     * The main class, module or jar of a java command line as the launcher reads it (null when it names
     * none: {@code java -version}): the first argument after the JVM's options, {@code -jar}'s or
     * {@code -m}'s value.
     */
    static String mainOf(List<String> commandLine) {
        for (int i = 1; i < commandLine.size(); i++) {
            String arg = commandLine.get(i);
            if (arg.equals("-jar") || arg.equals("-m") || arg.equals("--module")) {
                return i + 1 < commandLine.size() ? commandLine.get(i + 1) : null;
            }
            if (WITH_VALUE.contains(arg)) {
                i++;
            } else if (!arg.startsWith("-") && !arg.startsWith("@")) {
                return arg;
            }
        }
        return null;
    }

    /** Whether a main class or jar (as {@link #mainOf} gives it) is one this pattern asks for. */
    boolean matches(String main) {
        if (main == null) {
            return false;
        }
        String fileName = main.substring(main.lastIndexOf('/') + 1);
        return glob.matcher(main).matches() || glob.matcher(fileName).matches();
    }

    /**
     * The JVMs of this user (every one for root) that match and can be attached to now, oldest first; this
     * process is never one.
     */
    List<Match> find() {
        List<Match> found = new ArrayList<>();
        Path proc = Path.of("/proc");
        if (Files.isDirectory(proc.resolve("self"))) {
            try (Stream<Path> dirs = Files.list(proc)) {
                dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit))
                        .forEach(d -> fromProc(d).ifPresent(found::add));
            } catch (IOException | java.io.UncheckedIOException e) {
                // /proc unreadable: nothing found this time, looked at again next time
            }
        } else {
            for (VirtualMachineDescriptor d : VirtualMachine.list()) {
                String main = d.displayName().split(" ", 2)[0];
                long pid = Long.parseLong(d.id());
                if (pid != ProcessHandle.current().pid() && matches(main)) {
                    found.add(new Match(pid, main, startMillis(pid)));
                }
            }
        }
        found.sort(Comparator.comparingLong(Match::startMillis).thenComparingLong(Match::pid));
        return found;
    }

    private Optional<Match> fromProc(Path dir) {
        long pid = Long.parseLong(dir.getFileName().toString());
        if (pid == ProcessHandle.current().pid()) {
            return Optional.empty();
        }
        try {
            byte[] raw = Files.readAllBytes(dir.resolve("cmdline"));
            List<String> commandLine = Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
            if (commandLine.isEmpty() || !commandLine.get(0).endsWith("java")) {
                return Optional.empty();
            }
            String main = mainOf(commandLine);
            if (!matches(main) || !sameUser(pid) || !handlesSigquit(dir) || !AttachTarget.isJvm(pid)) {
                return Optional.empty();
            }
            return Optional.of(new Match(pid, main, startMillis(pid)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // gone meanwhile, or another user's
        }
    }

    private static boolean sameUser(long pid) {
        String me = System.getProperty("user.name");
        return "root".equals(me) || ProcessHandle.of(pid).flatMap(p -> p.info().user()).map(me::equals).orElse(false);
    }

    private static boolean handlesSigquit(Path dir) throws IOException {
        for (String line : Files.readAllLines(dir.resolve("status"))) {
            if (line.startsWith("SigCgt:")) {
                return (Long.parseUnsignedLong(line.substring("SigCgt:".length()).strip(), 16) & SIGQUIT_BIT) != 0;
            }
        }
        return false;
    }

    private static long startMillis(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().startInstant()).map(java.time.Instant::toEpochMilli)
                .orElse(Long.MAX_VALUE);
    }
}
