package io.hopscope.agent.instrumentation;

import java.lang.instrument.Instrumentation;

import io.hopscope.agent.runtime.HopscopeRuntime;
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

    /** Registers the runtime helpers (request describers, async adapters) this library needs. */
    default void register(HopscopeRuntime runtime) {
    }

    /** The same, for helpers that need the JVM's Instrumentation (to open a module's package). */
    default void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        register(runtime);
    }
}
