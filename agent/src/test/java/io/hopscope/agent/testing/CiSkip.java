package io.hopscope.agent.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * A case that cannot run on the machine at hand: skipped here, saying why, and failed under
 * {@code CI=true} (which .ci/run sets), where everything it needs is installed or the run is refused,
 * so that a skip there hides a broken machine or a broken build, never a test. Every skip of the agent's
 * tests goes through here unless its reason holds on CI too (docs/tests.md lists each one and why).
 * The analyzer's and the samples' tests have the same class: the test trees share no code.
 */
public final class CiSkip {

    private CiSkip() {
    }

    /** Whether this is a CI run ({@code CI=true}). */
    public static boolean underCi() {
        return "true".equals(System.getenv("CI"));
    }

    /** Skips the test with {@code why} unless {@code runnable}; under CI fails it instead. */
    public static void unless(boolean runnable, String why) {
        if (!runnable) {
            now(why);
        }
    }

    /** Skips the test now with {@code why}; under CI fails it instead. */
    public static void now(String why) {
        if (underCi()) {
            throw new AssertionError("CI=true, and this test cannot run: " + why
                    + " (under CI it must run, not skip: docs/tests.md, \"Skips\")");
        }
        Assumptions.abort(why);
    }
}
