package io.hopscope.agent.instrumentation;

import java.lang.instrument.Instrumentation;

import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;

/** One instrumented library: the class it needs, its type matchers and its advice. */
public interface HopscopeInstrumentation {

    /** Short name, as listed in AgentInfo's {@code instrumentations}. */
    String name();

    /**
     * The class whose presence the instrumentation needs (looked up as a resource, so that the
     * lookup loads nothing), or null for JDK classes that are always there.
     */
    String requiredClass();

    /** Adds this instrumentation's transformations. */
    AgentBuilder extend(AgentBuilder builder);

    /**
     * Whether the transformation adds fields: then it is applied only to classes loaded after the
     * agent (no retransformation), by a builder of its own.
     */
    default boolean addsFields() {
        return false;
    }

    /**
     * Adds what the generic runtime must know of this library (its thread classes, housekeeping
     * tasks, wait kinds, timeout exceptions), by name. Called for every instrumentation, even one
     * switched off or whose library the agent's class loader cannot see: the library's objects may
     * still turn up (an application server's libraries, a fat jar's).
     */
    default void addRules(LibraryRules rules) {
    }

    /** Registers the runtime helpers (request describers, async adapters) this library needs. */
    default void register(HopscopeRuntime runtime) {
    }

    /** The same, for helpers that need the JVM's Instrumentation (to open a module's package). */
    default void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        register(runtime);
    }
}
