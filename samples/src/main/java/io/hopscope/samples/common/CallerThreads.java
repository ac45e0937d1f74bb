package io.hopscope.samples.common;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The threads a scenario's requests run on: platform threads, or virtual threads (JDK 21+), named
 * {@code PREFIX1}, {@code PREFIX2}, ... either way. We compile for 17, so {@code Thread.ofVirtual()}
 * and {@code Thread#isVirtual} are reached by reflection, once per factory rather than per thread.
 */
public final class CallerThreads {

    public static final String PLATFORM = "platform";
    public static final String VIRTUAL = "virtual";

    /** The first JDK with virtual threads as a final feature (JEP 444). */
    private static final int VIRTUAL_THREADS_FEATURE = 21;

    private CallerThreads() {
    }

    /** True when this JVM has virtual threads. */
    public static boolean virtualAvailable() {
        return Runtime.version().feature() >= VIRTUAL_THREADS_FEATURE;
    }

    /**
     * A usage error naming {@code what} (an option and its value) when this JVM has no virtual
     * threads: the user ran the jar on the wrong {@code java}, which is no reason for a stack trace.
     */
    public static void checkVirtualAvailable(CommandSpec spec, String what) {
        Options.check(spec, virtualAvailable(), what + " needs a JDK " + VIRTUAL_THREADS_FEATURE
                + " or later; this is " + Runtime.version().feature());
    }

    /** Daemon threads of {@code kind} ({@link #PLATFORM} or {@link #VIRTUAL}) named {@code prefix} and 1, 2, ... */
    public static ThreadFactory factory(String kind, String prefix) {
        return VIRTUAL.equals(kind) ? virtual(prefix) : platform(prefix);
    }

    /** Daemon platform threads: callers still blocked when a run ends must not keep the JVM alive. */
    public static ThreadFactory platform(String prefix) {
        AtomicInteger index = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + index.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** {@code Thread.ofVirtual().name(prefix, 1).factory()}; virtual threads are always daemons. */
    public static ThreadFactory virtual(String prefix) {
        if (!virtualAvailable()) {
            throw new IllegalStateException("virtual threads need a JDK " + VIRTUAL_THREADS_FEATURE
                    + " or later; this is " + Runtime.version().feature());
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            builder = ofVirtual.getMethod("name", String.class, long.class).invoke(builder, prefix, 1L);
            return (ThreadFactory) ofVirtual.getMethod("factory").invoke(builder);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Thread.ofVirtual() failed", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no Thread.ofVirtual() on JDK " + Runtime.version(), e);
        }
    }

    /** {@code t.isVirtual()} on JDK 21+; false before, where every thread is a platform thread. */
    public static boolean isVirtual(Thread t) {
        Method isVirtual = IsVirtual.METHOD;
        if (isVirtual == null) {
            return false;
        }
        try {
            return (boolean) isVirtual.invoke(t);
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** {@code platform} or {@code virtual}: what {@code t} really is. */
    public static String kindOf(Thread t) {
        return isVirtual(t) ? VIRTUAL : PLATFORM;
    }

    /** Looked up once, on first use. */
    private static final class IsVirtual {
        static final Method METHOD = lookUp();

        private static Method lookUp() {
            try {
                return Thread.class.getMethod("isVirtual");
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    }
}
