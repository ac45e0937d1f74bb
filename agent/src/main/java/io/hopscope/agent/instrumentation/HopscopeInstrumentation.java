package io.hopscope.agent.instrumentation;

import java.lang.instrument.Instrumentation;

import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/** One instrumented library: the class it needs, its type matchers and its advice. */
public interface HopscopeInstrumentation {

    /** Short name, as listed in AgentInfo's {@code instrumentations}. */
    String name();

    /**
     * The library class whose presence the instrumentation needs, or null for the JDK's. The
     * library's classes are matched only in class loaders that see this class (looked up as a
     * resource, so that the lookup loads nothing): a library may be in any loader, and in several
     * (a Spring Boot jar's, an application server's, one the application made itself).
     */
    String requiredClass();

    /** Whether the JDK has what a JDK instrumentation needs (a runtime image may leave a module out). */
    default boolean availableInJdk() {
        return true;
    }

    /**
     * Adds this instrumentation's transformations; {@code libraryLoaders} matches the class loaders
     * that see {@link #requiredClass()} (any, for a JDK instrumentation), for every type rule of a library.
     */
    AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders);

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
     * switched off: the library's objects may still turn up.
     */
    default void addRules(LibraryRules rules) {
    }

    /**
     * Registers the runtime helpers (request describers, async adapters) this library needs. A
     * helper that names the library's classes is registered as a {@link LibraryHelper}, which
     * defines it for each class loader the library turns up in.
     */
    default void register(HopscopeRuntime runtime) {
    }

    /** The same, for helpers that need the JVM's Instrumentation (to open a module's package). */
    default void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        register(runtime);
    }
}
