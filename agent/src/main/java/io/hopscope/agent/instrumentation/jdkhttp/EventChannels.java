package io.hopscope.agent.instrumentation.jdkhttp;

import io.hopscope.agent.runtime.AgentErrors;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The socket channel of a JDK HttpClient event (jdk.internal.net.http.AsyncEvent#channel), the key
 * its request is remembered by. AsyncEvent is package-private in a package java.net.http does not
 * export, so the agent opens that package to its own module first; where that fails, events are
 * their own keys and a pooled connection's later exchanges are not followed to the selector.
 */
final class EventChannels implements Function<Object, Object> {

    private final Class<?> asyncEvent;
    private final MethodHandle channel;

    private EventChannels(Class<?> asyncEvent, MethodHandle channel) {
        this.asyncEvent = asyncEvent;
        this.channel = channel;
    }

    /** Null when java.net.http is absent or its package cannot be opened. */
    static EventChannels open(Instrumentation instrumentation) {
        Module http = ModuleLayer.boot().findModule("java.net.http").orElse(null);
        if (http == null) {
            return null;
        }
        try {
            String pkg = "jdk.internal.net.http";
            instrumentation.redefineModule(http, Set.of(), Map.of(), Map.of(pkg, Set.of(EventChannels.class.getModule())),
                    Set.of(), Map.of());
            Class<?> asyncEvent = Class.forName(pkg + ".AsyncEvent", false, http.getClassLoader());
            Method method = asyncEvent.getDeclaredMethod("channel");
            method.setAccessible(true);
            return new EventChannels(asyncEvent, MethodHandles.lookup().unreflect(method));
        } catch (Throwable t) {
            AgentErrors.report("jdk-http", t);
            return null;
        }
    }

    @Override
    public Object apply(Object key) {
        if (!asyncEvent.isInstance(key)) {
            return null;
        }
        try {
            return channel.invoke(key);
        } catch (Throwable t) {
            return null;
        }
    }
}
