package io.hopscope.agent.instrumentation.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.named;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

/**
 * What a type rule over every class would cost at start-up, against the named rule jaxrs-jersey has
 * (docs/agent.md, "Known servers", routes): the classes a JAX-RS application loaded (from a
 * {@code -Xlog:class+load} file, those from jars and class folders), each parsed by a Byte Buddy type
 * pool and its super types' names walked (what the agent does for every class anyway:
 * SuperTypeNames), then matched once by the rule of the mode given. Prints the thread's CPU time of
 * the parse-and-walk and of the matching, in one cold pass, as the agent's start pays it. Run one
 * JVM per mode, with the agent's JIT for its Byte Buddy (C1 only):
 * {@code java -XX:TieredStopAtLevel=1 -cp TEST_CLASSPATH ...AnnotationRuleCost CLASS_LOAD_LOG APP_CLASSPATH MODE},
 * MODE one of {@code named}, {@code own} (the class's and its methods' annotations),
 * {@code hierarchy} (the OpenTelemetry agent's: the same on every super type).
 */
public final class AnnotationRuleCost {

    private AnnotationRuleCost() {
    }

    public static void main(String[] args) throws Exception {
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            int source = line.indexOf(" source: file:");
            if (source > 0) {
                names.add(line.substring(line.lastIndexOf(' ', source - 1) + 1, source));
            }
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : args[1].split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        String path = "jakarta.ws.rs.Path";
        ElementMatcher<TypeDescription> rule;
        switch (args[2]) {
            case "named":
                rule = named(JerseyInstrumentation.DISPATCHER);
                break;
            case "own":
                rule = isAnnotatedWith(named(path)).or(declaresMethod(isAnnotatedWith(named(path))));
                break;
            case "hierarchy":
                rule = hasSuperType(isAnnotatedWith(named(path)).or(declaresMethod(isAnnotatedWith(named(path)))));
                break;
            default:
                throw new IllegalArgumentException("mode: named, own or hierarchy");
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
            long start = threads.getCurrentThreadCpuTime();
            List<TypeDescription> types = new ArrayList<>();
            int superTypes = 0;
            for (String name : names) {
                TypePool.Resolution resolution = pool.describe(name);
                if (!resolution.isResolved()) {
                    continue;
                }
                TypeDescription type = resolution.resolve();
                types.add(type);
                superTypes += walk(type);
            }
            long parsed = threads.getCurrentThreadCpuTime();
            int matched = 0;
            for (TypeDescription type : types) {
                if (rule.matches(type)) {
                    matched++;
                }
            }
            long done = threads.getCurrentThreadCpuTime();
            System.out.printf("mode %s: %d classes (%d super type names walked), parse and walk %.1f ms CPU,"
                    + " matching %.1f ms CPU (%.2f us a class), %d matched%n", args[2], types.size(), superTypes,
                    (parsed - start) / 1e6, (done - parsed) / 1e6, (done - parsed) / 1e3 / types.size(), matched);
        }
    }

    /** The super types' names, as SuperTypeNames reads them for every class the agent is offered. */
    private static int walk(TypeDefinition type) {
        int n = 0;
        for (TypeDefinition t = type; t != null; t = t.getSuperClass()) {
            t.asErasure().getName();
            n++;
            for (TypeDescription.Generic i : t.getInterfaces()) {
                n += walk(i);
            }
        }
        return n;
    }
}
