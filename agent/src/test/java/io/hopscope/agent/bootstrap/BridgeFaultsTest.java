package io.hopscope.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.FaultAgent;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated Bridge, in process: it has one forwarder per hook of the parts' hook interfaces, and
 * each keeps a fault of its hook from its caller. With FaultAgent's hooks installed over every part
 * (every hook throws) and the
 * counters of the early exits up, every forwarder is called with arguments that pass its early
 * exit: none throws, each reports one failure to onError under an instrumentation name, and
 * returns its fallback (null, or one of its own arguments). FaultAgent sees every hook called.
 */
class BridgeFaultsTest {

    private static final Set<String> INSTRUMENTATIONS = Set.of("executors", "threads", "context", "boundaries",
            "spans", "waits", "parks", "servers");

    private final List<String> errors = new ArrayList<>();
    private final Map<Field, Object> installed = new LinkedHashMap<>();
    private HookErrors installedErrors;

    @BeforeEach
    void raiseCounters() throws IllegalAccessException {
        for (Field f : FaultAgent.partFields()) {
            installed.put(f, f.get(null));
        }
        installedErrors = Bridge.errors;
        Bridge.WAITERS.incrementAndGet();
        Bridge.PENDING_TASKS.incrementAndGet();
        Bridge.CARRIED.incrementAndGet();
        Bridge.OPEN_EXCHANGES.incrementAndGet();
    }

    @AfterEach
    void restore() throws IllegalAccessException {
        for (Map.Entry<Field, Object> part : installed.entrySet()) {
            part.getKey().set(null, part.getValue());
        }
        Bridge.errors = installedErrors;
        Bridge.WAITERS.decrementAndGet();
        Bridge.PENDING_TASKS.decrementAndGet();
        Bridge.CARRIED.decrementAndGet();
        Bridge.OPEN_EXCHANGES.decrementAndGet();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void everyForwarderKeepsItsHooksFaultFromTheCaller(String mode) throws Exception {
        installPartsThatDoNothing();
        Bridge.errors = (instrumentation, error) -> errors.add(instrumentation + " " + error.getMessage());
        FaultAgent faults = FaultAgent.install(mode);

        Set<String> hooks = FaultAgent.hookNames();
        assertThat(hooks).as("hooks of the parts").contains("wrapRunnable", "mountEnter", "boundaryEnter",
                "spanEnter", "parkEnter");
        assertThat(forwarderNames()).as("Bridge's forwarders").isEqualTo(hooks);
        for (String hook : hooks) {
            Method forwarder = forwarder(hook);
            Object[] args = argumentsFor(forwarder.getParameterTypes());
            errors.clear();
            Object result = forwarder.invoke(null, args);
            assertThat(errors).as("onError calls of %s", hook).hasSize(1);
            assertThat(errors.get(0)).as("onError of %s", hook)
                    .matches("(" + String.join("|", INSTRUMENTATIONS) + ") " + FaultAgent.FAULT + hook);
            if (result != null) {
                assertThat(Arrays.stream(args).anyMatch(a -> a == result)).as("%s's fallback %s is one of its arguments",
                        hook, result).isTrue();
            }
        }
        assertThat(faults.called()).as("hooks FaultAgent saw").isEqualTo(hooks);
    }

    /** In place of each part, one whose hooks do nothing (return null). */
    private static void installPartsThatDoNothing() throws IllegalAccessException {
        for (Field f : FaultAgent.partFields()) {
            f.set(null, Proxy.newProxyInstance(f.getType().getClassLoader(), new Class<?>[] {f.getType()},
                    (proxy, method, args) -> null));
        }
    }

    private static Set<String> forwarderNames() {
        Set<String> names = new TreeSet<>();
        for (Method m : Bridge.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers())) {
                names.add(m.getName());
            }
        }
        return names;
    }

    private static Method forwarder(String hook) {
        return Arrays.stream(Bridge.class.getMethods()).filter(m -> m.getName().equals(hook)).findFirst().orElseThrow();
    }

    /** Non-null arguments of each type: they pass every forwarder's early exit. */
    private static Object[] argumentsFor(Class<?>[] types) {
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (t == Runnable.class) {
                args[i] = (Runnable) () -> { };
            } else if (t == Callable.class) {
                args[i] = (Callable<Object>) () -> null;
            } else if (t == java.util.Collection.class) {
                args[i] = new ArrayList<>();
            } else if (t == Thread.class) {
                args[i] = Thread.currentThread();
            } else if (t == String.class) {
                args[i] = "kind";
            } else if (t == boolean.class) {
                args[i] = true;
            } else if (t == long.class) {
                args[i] = 1L;
            } else if (t == Throwable.class) {
                args[i] = new IllegalStateException("the application's own");
            } else if (t == Object.class) {
                args[i] = new Object();
            } else {
                throw new AssertionError("no test argument for a hook's parameter of " + t);
            }
        }
        return args;
    }
}
