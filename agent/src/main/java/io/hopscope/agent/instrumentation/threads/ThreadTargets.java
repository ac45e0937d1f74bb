package io.hopscope.agent.instrumentation.threads;

import io.hopscope.agent.runtime.AgentErrors;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads a platform thread's Runnable, which tells a thread that runs one task from a pool's worker
 * loop: Thread.target on JDK 17, Thread.holder.task from JDK 19 on. java.lang is opened to the
 * agent for it (the JVM's Instrumentation can); where that fails, no platform thread is followed.
 */
final class ThreadTargets implements Function<Thread, Object> {

    private final MethodHandle target;
    /** Thread.currentCarrierThread() (JDK 19+), or null. */
    private final MethodHandle carrier;

    private ThreadTargets(MethodHandle target, MethodHandle carrier) {
        this.target = target;
        this.carrier = carrier;
    }

    static ThreadTargets open(Instrumentation instrumentation) {
        try {
            Module base = Thread.class.getModule();
            instrumentation.redefineModule(base, Set.of(), Map.of(),
                    Map.of("java.lang", Set.of(ThreadTargets.class.getModule())), Set.of(), Map.of());
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            MethodHandle handle;
            try {
                handle = lookup.unreflectGetter(accessible(Thread.class.getDeclaredField("holder")));
                Class<?> holder = handle.type().returnType();
                handle = MethodHandles.filterReturnValue(handle,
                        lookup.unreflectGetter(accessible(holder.getDeclaredField("task"))));
            } catch (NoSuchFieldException jdk17) {
                handle = lookup.unreflectGetter(accessible(Thread.class.getDeclaredField("target")));
            }
            return new ThreadTargets(handle.asType(MethodType.methodType(Object.class, Thread.class)),
                    currentCarrier(lookup));
        } catch (Throwable t) {
            AgentErrors.report("threads", t);
            return null;
        }
    }

    private static MethodHandle currentCarrier(MethodHandles.Lookup lookup) {
        try {
            Method m = Thread.class.getDeclaredMethod("currentCarrierThread");
            m.setAccessible(true);
            return lookup.unreflect(m);
        } catch (ReflectiveOperationException | RuntimeException beforeJdk19) {
            return null;
        }
    }

    /** The current virtual thread's carrier, or null where the JDK has none or it cannot be read. */
    Supplier<Thread> carrierOfCurrent() {
        MethodHandle handle = carrier;
        if (handle == null) {
            return null;
        }
        return () -> {
            try {
                return (Thread) handle.invokeExact();
            } catch (Throwable t) {
                return null;
            }
        };
    }

    private static Field accessible(Field field) {
        field.setAccessible(true);
        return field;
    }

    @Override
    public Object apply(Thread thread) {
        try {
            return (Object) target.invokeExact(thread);
        } catch (Throwable t) {
            return null;
        }
    }
}
