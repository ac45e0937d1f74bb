package io.hopscope.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Type matchers shared by the instrumentations. */
public final class Matchers {

    private Matchers() {
    }

    /**
     * Classes implementing an interface of a library. The name test comes first because it is
     * cheap: JDK classes never implement one, and resolving a class's super types means reading
     * their class files, for every class the application loads.
     */
    public static ElementMatcher.Junction<TypeDescription> implementationsOf(String interfaceName) {
        return notJdk().and(not(isInterface())).and(hasSuperTypeNamed(interfaceName));
    }

    /**
     * Classes that are, extend or implement the named type, from the super type names every rule
     * shares ({@link SuperTypeNames}): the hierarchy is walked once per class loaded, not once per rule.
     */
    public static ElementMatcher.Junction<TypeDescription> hasSuperTypeNamed(String name) {
        return new ElementMatcher.Junction.AbstractBase<>() {
            @Override
            public boolean matches(TypeDescription type) {
                return SuperTypeNames.has(type, name);
            }

            @Override
            public String toString() {
                return "hasSuperTypeNamed(" + name + ")";
            }
        };
    }

    /**
     * Classes of the JDK's packages but those {@code kept} (names, or package prefixes ending in a
     * dot): the agent's ignore matcher. A name test only, so that the thousands of JDK classes an
     * application loads are never parsed; the instrumentations that match JDK classes name them.
     */
    public static ElementMatcher.Junction<TypeDescription> jdkExcept(Collection<String> kept) {
        List<String> prefixes = kept.stream().filter(k -> k.endsWith(".")).collect(Collectors.toList());
        Set<String> names = kept.stream().filter(k -> !k.endsWith(".")).collect(Collectors.toUnmodifiableSet());
        return new ElementMatcher.Junction.AbstractBase<>() {
            @Override
            public boolean matches(TypeDescription type) {
                String name = type.getName();
                if (!isJdkName(name) || names.contains(name)) {
                    return false;
                }
                for (String prefix : prefixes) {
                    if (name.startsWith(prefix)) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public String toString() {
                return "jdkExcept(" + kept + ")";
            }
        };
    }

    /** Whether a class name is in one of the JDK's packages (java., javax., jdk., sun., com.sun.). */
    static boolean isJdkName(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    /** Classes outside the JDK (and Kotlin's runtime): the name test before any super type test. */
    public static ElementMatcher.Junction<TypeDescription> notJdk() {
        return not(nameStartsWith("java.").or(nameStartsWith("jdk.")).or(nameStartsWith("sun."))
                .or(nameStartsWith("com.sun.")).or(nameStartsWith("kotlin.")));
    }
}
