package io.hopscope.agent.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.List;

import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.settings.AgentOptions;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * One instrumented library: the class it needs, its type matchers and its advice. Each one lists
 * itself in {@code META-INF/services/io.hopscope.agent.instrumentation.HopscopeInstrumentation}
 * (the agent loads them with a ServiceLoader, in that file's order, which is the order their rules
 * are applied in) and has a public no-argument constructor; options reach it through {@link #configure}.
 */
public interface HopscopeInstrumentation {

    /** Takes what it needs of the agent's options, before anything else is asked of it. */
    default void configure(AgentOptions options) {
    }

    /** Short name, as listed in AgentInfo's {@code instrumentations}. */
    String name();

    /**
     * The library class whose presence the instrumentation needs, or null for the JDK's. The
     * library's classes are matched only in class loaders that see this class (looked up as a
     * resource, so that the lookup loads nothing): a library may be in any loader, and in several
     * (a Spring Boot jar's, an application server's, one the application made itself).
     */
    String requiredClass();

    /**
     * The class a copy of the library relocated under another package (see
     * {@link io.hopscope.agent.instrumentation.Relocation}) must have under its prefix: the
     * required class, unless that is another library's, which the copy need not have relocated.
     */
    default String requiredClassOfCopy() {
        return requiredClass();
    }

    /**
     * The library's root package ({@code io.netty}): a relocated copy is named by where it went
     * ({@code netty@com.example.shaded.io.netty}), and recognised by it in a class loader where
     * none of the instrumentation's named classes has been loaded yet.
     */
    default String libraryPackage() {
        String required = requiredClass();
        int first = required.indexOf('.');
        int second = required.indexOf('.', first + 1);
        return second < 0 ? required.substring(0, Math.max(first, 0)) : required.substring(0, second);
    }

    /**
     * Prefixes under which the library itself ships a copy of its own (reactor-netty's
     * reactor-pool): looked for at install like the original, and named like it.
     */
    default List<String> knownRelocations() {
        return List.of();
    }

    /** The name AgentInfo gives the copy under this prefix. */
    default String copyName(String prefix) {
        return prefix.isEmpty() || knownRelocations().contains(prefix) ? name()
                : name() + "@" + prefix + libraryPackage();
    }

    /**
     * The JDK classes this instrumentation's rules match: names, or package prefixes ending in a
     * dot. Every other class of the JDK's packages is ignored by its name alone, before Byte Buddy
     * reads its class file (see {@link Matchers#jdkExcept}). Empty for a library's instrumentation.
     */
    default List<String> jdkClasses() {
        return List.of();
    }

    /**
     * The JDK classes this instrumentation transforms that the agent loads at install, so that they
     * are transformed then and not during the application's first request, nor first loaded while
     * another class is being transformed (see AgentInstaller); one a JDK lacks is passed over.
     */
    default List<String> preloadedClasses() {
        return List.of();
    }

    /**
     * Query parameters this library's URLs carry that are never a credential, kept in
     * {@code Request.url} unless {@code redact=} says otherwise.
     */
    default List<String> keptQueryParameters() {
        return List.of();
    }

    /**
     * The versions of the library this instrumentation supports and is tested on (its oldest and
     * newest); null for the JDK's.
     */
    default SupportedVersions versions() {
        return null;
    }

    /** Whether the JDK has what a JDK instrumentation needs (a runtime image may leave a module out). */
    default boolean availableInJdk() {
        return true;
    }

    /**
     * Adds this instrumentation's transformations; {@code libraryLoaders} matches the class loaders
     * that see {@link #requiredClass()} (any, for a JDK instrumentation), for every type rule of a library.
     * A library's rules made with {@link LibraryLoaders#of}{@code (libraryLoaders).named(...)} or
     * {@code .subTypesOf(...)} also match the library's relocated copies.
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
