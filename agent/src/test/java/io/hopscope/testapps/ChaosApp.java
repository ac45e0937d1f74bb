package io.hopscope.testapps;

import io.hopscope.agent.testing.Chaos;
import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Runs test programs once per seed of the timing chaos, one after another in one JVM (under
 * hopscope's agent and the fault agent in mode chaos): one JVM start for every seed's run of
 * several workloads.
 *
 * <pre>
 * ChaosApp SEED,SEED... PROGRAM [--next PROGRAM]...
 *   PROGRAM: CLASSPATH CLASS ARGS...        CLASS's main(ARGS)
 *            CLASSPATH --samples ARGS...    the samples command ARGS (the samples jar on CLASSPATH)
 * </pre>
 *
 * For each seed it starts the chaos of that seed ({@link Chaos#seed}), then runs each program, each
 * inside a {@code hopscope.test.ChaosRun} JFR event (seed, program) that spans the program's run, and
 * between two lines on stdout, {@code chaos run SEED begins: PROGRAM} and {@code chaos run SEED
 * ends: exit CODE}: the test reads each run's requests and output back by them. Each program runs
 * in a class loader of its own over its class path (the platform loader its parent), made once: its
 * classes and libraries are loaded once, its main called again for each seed, so programs whose
 * libraries would clash share a JVM. This class runs from the fault agent's jar, so that the JVM's
 * class path holds no test application (a server that loads an application's class by its name
 * through the system loader first, as Tomcat does, would find it there). Exits 1 when a program
 * threw or returned a non-zero exit code, after the other runs.
 */
public final class ChaosApp {

    /** One program's run under one seed, in the recording. */
    @Name("hopscope.test.ChaosRun")
    @Label("Chaos run")
    @Category("hopscope tests")
    @StackTrace(false)
    static final class RunEvent extends Event {
        @Label("Seed")
        long seed;
        @Label("Program")
        String program;
    }

    private ChaosApp() {
    }

    public static void main(String[] args) throws Exception {
        // As Samples#main: no SLF4J provider warnings from Jetty and azure-core.
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        String[] seeds = args[0].split(",");
        List<Program> programs = new ArrayList<>();
        for (List<String> spec : programs(Arrays.asList(args).subList(1, args.length))) {
            programs.add(new Program(spec));
        }
        int exit = 0;
        for (String seed : seeds) {
            Chaos.seed(Long.parseLong(seed.trim()));
            for (Program program : programs) {
                System.out.println("chaos run " + seed + " begins: " + program.name);
                RunEvent event = new RunEvent();
                event.seed = Long.parseLong(seed.trim());
                event.program = program.name;
                event.begin();
                int code;
                try {
                    code = program.run();
                } catch (Throwable t) {
                    t.printStackTrace();
                    code = 1;
                }
                event.commit();
                System.out.println("chaos run " + seed + " ends: exit " + code);
                exit = exit == 0 ? code : exit;
            }
        }
        System.out.println("chaos delays " + Chaos.delayed());
        // The programs leave event loops and pools behind (the samples' clients do).
        System.exit(exit);
    }

    private static List<List<String>> programs(List<String> args) {
        List<List<String>> programs = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--next")) {
                programs.add(current);
                current = new ArrayList<>();
            } else {
                current.add(arg);
            }
        }
        programs.add(current);
        return programs;
    }

    /** One program: its loader, made once, and what it runs. */
    private static final class Program {
        final String name;
        final ClassLoader loader;
        final boolean samples;
        final String mainClass;
        final String[] args;

        Program(List<String> spec) throws MalformedURLException {
            name = String.join(" ", spec.subList(1, spec.size()));
            loader = new URLClassLoader("chaos-program", urls(spec.get(0)), ClassLoader.getPlatformClassLoader());
            samples = spec.get(1).equals("--samples");
            mainClass = samples ? "io.hopscope.samples.Samples" : spec.get(1);
            args = spec.subList(2, spec.size()).toArray(new String[0]);
        }

        /** Runs it: its exit code (0 for a main that returned). */
        int run() throws Exception {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            Thread.currentThread().setContextClassLoader(loader);
            try {
                Class<?> main = Class.forName(mainClass, true, loader);
                if (samples) {
                    Object commandLine = main.getMethod("commandLine").invoke(null);
                    return (Integer) commandLine.getClass().getMethod("execute", String[].class)
                            .invoke(commandLine, (Object) args);
                }
                Method m = main.getMethod("main", String[].class);
                m.invoke(null, (Object) args);
                return 0;
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
            } finally {
                Thread.currentThread().setContextClassLoader(context);
            }
        }
    }

    private static URL[] urls(String classPath) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String path : classPath.split(File.pathSeparator)) {
            if (!path.isEmpty()) {
                urls.add(new File(path).toURI().toURL());
            }
        }
        return urls.toArray(new URL[0]);
    }
}
