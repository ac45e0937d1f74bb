package io.hopscope.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.FaultAgent;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated Bridge, in process: it has one forwarder per hook of Hooks, and each keeps a fault
 * of its hook from its caller. With FaultAgent's hooks installed (every hook throws) and the
 * counters of the early exits up, every forwarder is called with arguments that pass its early
 * exit: none throws, each reports one failure to onError under an instrumentation name, and
 * returns its fallback (null, or one of its own arguments). FaultAgent sees every hook called.
 */
class BridgeFaultsTest {

    private static final Set<String> INSTRUMENTATIONS = Set.of("executors", "threads", "context", "boundaries",
            "spans", "waits", "parks");

    private final List<String> errors = new ArrayList<>();
    private Hooks installed;

    @BeforeEach
    void raiseCounters() {
        installed = Bridge.hooks;
        Bridge.WAITERS.incrementAndGet();
        Bridge.PENDING_TASKS.incrementAndGet();
        Bridge.CARRIED.incrementAndGet();
    }

    @AfterEach
    void restore() {
        Bridge.hooks = installed;
        Bridge.WAITERS.decrementAndGet();
        Bridge.PENDING_TASKS.decrementAndGet();
        Bridge.CARRIED.decrementAndGet();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all", "after"})
    void everyForwarderKeepsItsHooksFaultFromTheCaller(String mode) throws Exception {
        FaultAgent faults = FaultAgent.around(runtimeThatRecordsErrors(), mode);
        Bridge.hooks = faults.hooks();

        Set<String> hooks = hookNames();
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

    /** A runtime whose hooks do nothing and whose onError records "instrumentation message". */
    private Hooks runtimeThatRecordsErrors() {
        return (Hooks) Proxy.newProxyInstance(Hooks.class.getClassLoader(), new Class<?>[] {Hooks.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("onError")) {
                        errors.add(args[0] + " " + ((Throwable) args[1]).getMessage());
                    }
                    return null;
                });
    }

    private static Set<String> hookNames() {
        Set<String> names = new TreeSet<>();
        for (Method m : Hooks.class.getMethods()) {
            names.add(m.getName());
        }
        names.remove("onError");
        return names;
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
