package io.hopscope.agent.testing;

import io.hopscope.agent.bootstrap.BridgeState;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Timing chaos at the hooks, for tests: {@link FaultAgent}'s mode {@code chaos}, where the proxy over
 * each part calls the runtime as it is, with a delay before and after the call drawn at random: the
 * orders in which threads meet that an idle machine seldom shows (a result completed before its
 * caller parks, a task that starts before its submitter goes on, an unpark that overtakes the park,
 * a request that ends while its last hop is being written). Before and after each hook is each of:
 * a hand-over being wrapped (the moment before it is queued), a task's start and end, a park or a
 * wait entered (after the hand-over was queued: the submitter's next hook) and left (after the
 * unpark), an unpark, a result's completion, a span's or a request's end, a server's.
 *
 * <p>Repeatable by seed as far as each thread's own choices go: each thread draws from a generator
 * of its own, seeded from the seed and its name (so that the same thread of the same program makes
 * the same choices at its n-th hook, whatever the other threads do), restarted whenever the seed
 * changes ({@link #seed}: a program that runs its workload once per seed in one JVM). Which thread
 * runs first after a delay is the machine's choice, not the seed's.
 *
 * <p>Bounded: only where a request is involved (the thread is in one, the hook is given or returns
 * what the runtime made for one, or, before a hook, some request has work pending:
 * {@link #requestWorkPending}), and at most {@link #budgetNanos} of delays per seed,
 * summed over all threads; past it only yields. A delay spins (yielding the core, so that the other
 * threads run meanwhile) and never sleeps or parks: the thread stays runnable, so a test's gate that
 * waits for a thread to be parked is not fooled by a delay, and no instrumented call is made from
 * inside a hook. On a virtual thread it spins without yielding, which would unmount it (a mount of
 * the test's own making).
 */
public final class Chaos {

    /** The system property that sets the seed (the agent argument {@code chaos:SEED} wins over it). */
    public static final String SEED_PROPERTY = "hopscope.chaos.seed";
    /** The system property that sets each seed's budget of delays, in milliseconds. */
    public static final String BUDGET_PROPERTY = "hopscope.chaos.budget.ms";

    private static volatile long seed;
    /** Bumped at each seed: a thread's generator is restarted when it sees a new one. */
    private static volatile int generation;
    private static final AtomicLong spentNanos = new AtomicLong();
    private static volatile long budgetNanos = 2_000_000_000L;
    /** Delays made per hook before and after it runs, for a test to check that the chaos reached its points. */
    private static final Map<String, LongAdder> BEFORE = new ConcurrentHashMap<>();
    private static final Map<String, LongAdder> AFTER = new ConcurrentHashMap<>();

    private static final ThreadLocal<ThreadChaos> THREADS = new ThreadLocal<>();
    /** The runtime's current request on this thread (ThreadContexts.current().request), through reflection. */
    private static MethodHandle currentState;
    private static MethodHandle stateRequest;

    private Chaos() {
    }

    /** One thread's generator (splitmix64) and the generation it was seeded for. */
    private static final class ThreadChaos {
        int generation = -1;
        long state;
        final boolean virtual = Thread.currentThread().getClass().getName().equals("java.lang.VirtualThread");

        long next() {
            long z = (state += 0x9E3779B97F4A7C15L);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** A number in [0, bound). */
        int below(int bound) {
            return (int) Long.remainderUnsigned(next(), bound);
        }
    }

    /**
     * Reads the runtime's thread state through the class loader of an installed part (the agent's):
     * the one place the chaos knows the runtime's internals, to keep its delays to threads in a request.
     */
    static void install(ClassLoader runtime) {
        try {
            Class<?> contexts = Class.forName("io.hopscope.agent.runtime.ThreadContexts", true, runtime);
            Method current = contexts.getDeclaredMethod("current");
            current.setAccessible(true);
            Class<?> state = Class.forName("io.hopscope.agent.runtime.ThreadState", true, runtime);
            Field request = state.getDeclaredField("request");
            request.setAccessible(true);
            currentState = MethodHandles.lookup().unreflect(current);
            stateRequest = MethodHandles.lookup().unreflectGetter(request);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("chaos: cannot read the runtime's thread state", e);
        }
        String budget = System.getProperty(BUDGET_PROPERTY);
        if (budget != null) {
            budgetNanos = Long.parseLong(budget) * 1_000_000L;
        }
        String property = System.getProperty(SEED_PROPERTY);
        seed(property != null && !property.isBlank() ? Long.parseLong(property.strip()) : 1);
        // Loaded now, not inside a hook on a request's thread (whose class loading the agent meters).
        new ThreadChaos().next();
        BEFORE.computeIfAbsent("-", k -> new LongAdder()).increment();
        BEFORE.remove("-");
    }

    /** Starts the chaos of {@code newSeed}: every thread's generator restarts, the budget is whole again. */
    public static void seed(long newSeed) {
        seed = newSeed;
        spentNanos.set(0);
        generation++;
    }

    /** The seed in force. */
    public static long seed() {
        return seed;
    }

    /** Delays drawn so far (yields included), per hook and point ("parkEnter before"), since the JVM started. */
    public static Map<String, Long> delayed() {
        Map<String, Long> counts = new TreeMap<>();
        BEFORE.forEach((k, v) -> counts.put(k + " before", v.sum()));
        AFTER.forEach((k, v) -> counts.put(k + " after", v.sum()));
        return counts;
    }

    /** Whether this thread works on a request now. */
    static boolean inRequest() {
        try {
            Object s = currentState.invoke();
            return s != null && stateRequest.invoke(s) != null;
        } catch (Throwable t) {
            throw new IllegalStateException("chaos: cannot read the runtime's thread state", t);
        }
    }

    /**
     * Whether some request has work pending somewhere (BridgeState's counters, which the hottest
     * hooks' early exits read): a thread registered waiting in one, a task handed over in one and not
     * started, a virtual thread carried in one, an inbound request's exchange open.
     */
    static boolean requestWorkPending() {
        return BridgeState.WAITERS.get() > 0 || BridgeState.PENDING_TASKS.get() > 0 || BridgeState.CARRIED.get() > 0
                || BridgeState.OPEN_EXCHANGES.get() > 0;
    }

    /** Whether {@code o} is something the runtime made (a wrapped task, a capture, a hook's token). */
    static boolean isRuntimes(Object o) {
        return o != null && o.getClass().getName().startsWith("io.hopscope.agent.runtime.");
    }

    static boolean anyRuntimes(Object[] args) {
        if (args != null) {
            for (Object a : args) {
                if (isRuntimes(a)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A delay before {@code hook} runs, drawn from this thread's generator. */
    static void before(String hook) {
        at(hook, BEFORE);
    }

    /** A delay after {@code hook} ran. */
    static void after(String hook) {
        at(hook, AFTER);
    }

    private static void at(String hook, Map<String, LongAdder> point) {
        ThreadChaos t = THREADS.get();
        if (t == null) {
            t = new ThreadChaos();
            THREADS.set(t);
        }
        int g = generation;
        if (t.generation != g) {
            t.generation = g;
            t.state = seed * 0x9E3779B97F4A7C15L + Thread.currentThread().getName().hashCode();
        }
        int draw = t.below(100);
        long nanos;
        if (draw < 55) {
            return;
        } else if (draw < 70) {
            nanos = 0; // one yield
        } else if (draw < 90) {
            nanos = 10_000 + t.below(90_000);
        } else if (draw < 98) {
            nanos = 100_000 + t.below(900_000);
        } else {
            nanos = 1_000_000 + t.below(2_000_000);
        }
        if (nanos > 0 && spentNanos.addAndGet(nanos) > budgetNanos) {
            nanos = 0;
        }
        point.computeIfAbsent(hook, k -> new LongAdder()).increment();
        if (nanos == 0) {
            if (!t.virtual) {
                Thread.yield();
            }
            return;
        }
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            if (t.virtual) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
