package io.hopscope.samples.bench.agents.bridge;

/**
 * What the {@code boot-append} agent appends to the boot class path: a few classes standing in for
 * hopscope's bridge (its size, not its code, matters: nothing loads them). On the samples' class path
 * too, where nothing loads them either.
 */
public final class BootBridge {

    /** The bridge's hooks, as advice inlined into JDK classes would call them. */
    public static final class Hooks {

        private Hooks() {
        }

        public static Object enter(Object task) {
            return task;
        }
    }

    /** The bridge's per-thread context, as the hooks would keep it. */
    public static final class Context {

        static final ThreadLocal<Object> CURRENT = new ThreadLocal<>();

        private Context() {
        }
    }

    private BootBridge() {
    }
}
