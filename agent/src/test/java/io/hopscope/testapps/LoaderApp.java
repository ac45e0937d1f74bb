package io.hopscope.testapps;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs sample commands (io.hopscope.samples.Samples, reached by reflection), each in the class
 * loader its group names, the way an application that makes its own loaders would:
 *
 * <pre>
 * LoaderApp LOADER ARGS... [--next LOADER ARGS...]...
 *   own                  the loader of this class (in a Spring Boot jar, its LaunchedClassLoader)
 *   system:CLASSPATH     a URLClassLoader over CLASSPATH whose parent is the system class loader
 *   platform:CLASSPATH   a URLClassLoader over CLASSPATH whose parent is the platform class loader
 * ARGS: a samples command, or --main CLASS ARGS... for CLASS's static int exitCode(String[])
 * </pre>
 *
 * For each samples group it prints which loaders defined Reactor's Mono and azure-core's
 * HttpPipeline and the command's exit code, for a --main group the exit code; it exits with the
 * first non-zero one. Several groups share one JVM, so that a test sees every loader case for the
 * price of one JVM start with the agent.
 */
public final class LoaderApp {

    private LoaderApp() {
    }

    public static void main(String[] args) throws Exception {
        // As Samples#main: no SLF4J provider warnings from Jetty and azure-core.
        System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        Map<String, ClassLoader> loaders = new HashMap<>();
        int group = 0;
        int exit = 0;
        for (List<String> command : groups(args)) {
            group++;
            String spec = command.get(0);
            ClassLoader loader = loaders.computeIfAbsent(spec, LoaderApp::loader);
            Thread.currentThread().setContextClassLoader(loader);
            if (command.size() > 2 && command.get(1).equals("--main")) {
                String[] mainArgs = command.subList(3, command.size()).toArray(new String[0]);
                int code = (Integer) Class.forName(command.get(2), true, loader).getMethod("exitCode", String[].class)
                        .invoke(null, (Object) mainArgs);
                System.out.println("group " + group + " " + String.join(" ", command.subList(2, command.size()))
                        + ": exit " + code);
                exit = exit == 0 ? code : exit;
                continue;
            }
            Class<?> samples = Class.forName("io.hopscope.samples.Samples", true, loader);
            Object commandLine = samples.getMethod("commandLine").invoke(null);
            String[] samplesArgs = command.subList(1, command.size()).toArray(new String[0]);
            int code = (Integer) commandLine.getClass().getMethod("execute", String[].class)
                    .invoke(commandLine, (Object) samplesArgs);
            System.out.println("group " + group + " " + String.join(" ", samplesArgs) + ": Mono from "
                    + definer("reactor.core.publisher.Mono", loader) + ", HttpPipeline from "
                    + definer("com.azure.core.http.HttpPipeline", loader) + ", exit " + code);
            if (code != 0 && exit == 0) {
                exit = code;
            }
        }
        // The clients leave event loops and pools behind, as Samples#main says.
        System.exit(exit);
    }

    private static List<List<String>> groups(String[] args) {
        List<List<String>> groups = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--next")) {
                groups.add(current);
                current = new ArrayList<>();
            } else {
                current.add(arg);
            }
        }
        groups.add(current);
        return groups;
    }

    private static ClassLoader loader(String spec) {
        if (spec.equals("own")) {
            return LoaderApp.class.getClassLoader();
        }
        int colon = spec.indexOf(':');
        String parentName = spec.substring(0, colon);
        ClassLoader parent;
        if (parentName.equals("system")) {
            parent = ClassLoader.getSystemClassLoader();
        } else if (parentName.equals("platform")) {
            parent = ClassLoader.getPlatformClassLoader();
        } else {
            throw new IllegalArgumentException("no such loader: " + spec);
        }
        URL[] urls = Arrays.stream(spec.substring(colon + 1).split(File.pathSeparator)).map(path -> {
            try {
                return new File(path).toURI().toURL();
            } catch (Exception e) {
                throw new IllegalArgumentException(path, e);
            }
        }).toArray(URL[]::new);
        return new URLClassLoader("app-" + parentName, urls, parent);
    }

    /** The loader that defined the class, as seen from the given one: its class and name. */
    private static String definer(String className, ClassLoader from) throws ClassNotFoundException {
        ClassLoader definer = Class.forName(className, false, from).getClassLoader();
        if (definer == null) {
            return "bootstrap";
        }
        if (definer == ClassLoader.getSystemClassLoader()) {
            return "system";
        }
        return definer.getClass().getName() + (definer.getName() == null ? "" : " " + definer.getName());
    }
}
