package io.hopscope.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.failSafe;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

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
        return notJdk().and(not(isInterface())).and(failSafe(hasSuperType(named(interfaceName))));
    }

    /** Classes outside the JDK (and Kotlin's runtime): the name test before any super type test. */
    public static ElementMatcher.Junction<TypeDescription> notJdk() {
        return not(nameStartsWith("java.").or(nameStartsWith("jdk.")).or(nameStartsWith("sun."))
                .or(nameStartsWith("com.sun.")).or(nameStartsWith("kotlin.")));
    }
}
