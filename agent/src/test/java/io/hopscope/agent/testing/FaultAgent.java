package io.hopscope.agent.testing;

import io.hopscope.agent.bootstrap.BridgeState;
import io.hopscope.agent.bootstrap.HookErrors;
import io.hopscope.testapps.ChaosApp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Makes the hooks throw, for the fault-injection tests: a dynamic proxy over each part's hook
 * interface put in place of the installed part (each {@link BridgeState} field but errors), so that
 * a new hook, or a new part, is covered without being written again. With
 * {@code all} each hook throws at once; with {@code after} it throws once the runtime has done its
 * work, so that the runtime's wrappers and half-done states (a request entered whose token is lost)
 * are exercised too. Neither reaches a hook that takes what another returned (an exit and its
 * token, the task a wrap returned): the bridge passes the fallback, or skips it. With {@code exits}
 * the runtime works and its hooks return, except those given something a hook returned: they throw
 * once the runtime has done their work. The Bridge reports to the runtime's errors (not wrapped),
 * to count and report. Records which hooks threw, so that a test can check that it reached them all.
 * With {@code chaos} nothing throws: each hook runs as it is, with delays before and after it
 * ({@link Chaos}), and the hooks delayed are recorded instead.
 *
 * <p>On a separate JVM it is a second java agent ({@link #jar}), after hopscope's: its premain runs
 * once hopscope's install, self-check included, is done, and wraps what hopscope installed.
 */
public final class FaultAgent implements InvocationHandler {

    /** The message every injected fault carries. */
    public static final String FAULT = "hopscope.test.faults: injected fault in ";

    /** The installed part behind each hook interface. */
    private final Map<Class<?>, Object> parts;
    private final String mode;
    private final Set<String> called = ConcurrentHashMap.newKeySet();
    /** With exits: what the hooks returned (weakly, by identity: no runtime class defines equals). */
    private final Map<Object, Boolean> returned = Collections.synchronizedMap(new WeakHashMap<>());

    private FaultAgent(Map<Class<?>, Object> parts, String mode) {
        this.parts = parts;
        this.mode = mode;
    }

    /** BridgeState's part fields: one a hook interface, each read by the Bridge forwarders of its hooks. */
    public static List<Field> partFields() {
        List<Field> fields = new ArrayList<>();
        for (Field f : BridgeState.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType().isInterface() && f.getType() != HookErrors.class) {
                fields.add(f);
            }
        }
        return fields;
    }

    /** Every hook of every part's interface, by name. */
    public static Set<String> hookNames() {
        Set<String> names = new TreeSet<>();
        for (Field f : partFields()) {
            for (Method m : f.getType().getMethods()) {
                names.add(m.getName());
            }
        }
        return names;
    }

    /**
     * Puts hooks that throw ({@code mode} all, after or exits) in place of each installed part, over
     * it; returns the handler that records them. A part not installed stays so.
     */
    public static FaultAgent install(String mode) {
        if (!Set.of("all", "after", "exits", "chaos").contains(mode)) {
            throw new IllegalArgumentException("fault mode is all, after, exits or chaos, not " + mode);
        }
        try {
            Map<Class<?>, Object> installed = new LinkedHashMap<>();
            for (Field f : partFields()) {
                if (f.get(null) != null) {
                    installed.put(f.getType(), f.get(null));
                }
            }
            FaultAgent faults = new FaultAgent(installed, mode);
            if (mode.equals("chaos") && !installed.isEmpty()) {
                Chaos.install(installed.values().iterator().next().getClass().getClassLoader());
            }
            for (Field f : partFields()) {
                if (installed.containsKey(f.getType())) {
                    f.set(null, Proxy.newProxyInstance(f.getType().getClassLoader(), new Class<?>[] {f.getType()}, faults));
                }
            }
            return faults;
        } catch (IllegalAccessException e) {
            throw new AssertionError("BridgeState's part fields are public", e);
        }
    }

    /** The hooks made to throw so far; in mode chaos, each hook and point delayed, with its count ("parkEnter before 12"). */
    public Set<String> called() {
        if (mode.equals("chaos")) {
            Set<String> lines = new TreeSet<>();
            Chaos.delayed().forEach((point, count) -> lines.add(point + " " + count));
            return lines;
        }
        return new TreeSet<>(called);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            // No switch expression: this class is also built for the JDK 11 runs.
            if (method.getName().equals("equals")) {
                return proxy == args[0];
            }
            if (method.getName().equals("hashCode")) {
                return System.identityHashCode(proxy);
            }
            return "FaultAgent(" + parts.get(method.getDeclaringClass()) + ")";
        }
        if (mode.equals("chaos")) {
            // Only where a request is involved (Chaos): before, the thread is in one, the hook is
            // given what the runtime made for one, or some request has work pending (a thread outside
            // it may be about to join it: a task's start, a mount); after, also when it made one.
            String hook = method.getName();
            boolean involved = Chaos.inRequest() || Chaos.anyRuntimes(args) || Chaos.requestWorkPending();
            if (involved) {
                Chaos.before(hook);
            }
            Object result = callRuntime(method, args);
            if (involved || Chaos.inRequest() || Chaos.isRuntimes(result)) {
                Chaos.after(hook);
            }
            return result;
        }
        if (mode.equals("exits")) {
            Object result = callRuntime(method, args);
            if (!givenWhatAHookReturned(args)) {
                if (result != null && !(result instanceof Collection)) {
                    returned.put(result, Boolean.TRUE);
                }
                return result;
            }
        } else if (mode.equals("after")) {
            callRuntime(method, args);
        }
        called.add(method.getName());
        throw new IllegalStateException(FAULT + method.getName());
    }

    private boolean givenWhatAHookReturned(Object[] args) {
        if (args == null) {
            return false;
        }
        for (Object arg : args) {
            if (arg != null && returned.containsKey(arg)) {
                return true;
            }
        }
        return false;
    }

    private Object callRuntime(Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(parts.get(method.getDeclaringClass()), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Java agent entry: {@code mode,hitsFile}, where mode may be {@code chaos:SEED}. Puts the faulty
     * hooks in place of hopscope's parts (none installed: nothing to do) and writes the hooks called
     * (or delayed), one a line, to hitsFile at exit.
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        String[] parts = arguments.split(",", 2);
        if (BridgeState.errors == null) {
            return;
        }
        String[] mode = parts[0].split(":", 2);
        FaultAgent faults = install(mode[0]);
        if (mode[0].equals("chaos")) {
            if (mode.length > 1) {
                Chaos.seed(Long.parseLong(mode[1]));
            }
            // The seed in the JVM's own output, which a failing test prints.
            System.err.println("hopscope.test.chaos: seed " + Chaos.seed());
        }
        Path hits = Path.of(parts[1]);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.write(hits, faults.called(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                System.err.println("FaultAgent: cannot write " + hits + ": " + e);
            }
        }));
    }

    /**
     * Writes this class as a java agent jar: {@code -javaagent:jar=mode,hitsFile}, after hopscope's;
     * with its chaos, and ChaosApp, the main class of a JVM that runs programs under it (ChaosRuns).
     */
    public static Path jar(Path jar) throws IOException {
        return jar(jar, null);
    }

    /** The same with this class as compiled into {@code classes} (the JDK 11 build of it), where not null. */
    public static Path jar(Path jar, Path classes) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), FaultAgent.class.getName());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest)) {
            List<Class<?>> agentClasses = new ArrayList<>();
            for (Class<?> c : List.of(FaultAgent.class, Chaos.class, ChaosApp.class)) {
                agentClasses.add(c);
                agentClasses.addAll(List.of(c.getDeclaredClasses()));
            }
            for (Class<?> c : agentClasses) {
                String entry = c.getName().replace('.', '/') + ".class";
                try (InputStream in = classes == null ? FaultAgent.class.getClassLoader().getResourceAsStream(entry)
                        : Files.newInputStream(classes.resolve(entry))) {
                    j.putNextEntry(new JarEntry(entry));
                    in.transferTo(j);
                    j.closeEntry();
                }
            }
        }
        return jar;
    }
}
