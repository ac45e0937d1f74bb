package io.hopscope.agent.instrumentation;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The class loaders that see a library, by one of its classes: an instrumentation's type rules
 * apply only there. A library may be in any loader and in several (a Spring Boot jar's, an
 * application server's, one the application made itself), so this is asked per loader, not once
 * of the agent's own. The first match of a type rule in a loader asks it once, with a resource
 * lookup that loads nothing; the answer is kept with the loader held weakly. A library added to a
 * loader after that first question (URLClassLoader#addURL) is not seen there.
 */
public final class LibraryLoaders implements ElementMatcher<ClassLoader> {

    private final String classResource;
    private final Map<ClassLoader, Boolean> answers = Collections.synchronizedMap(new WeakHashMap<>());
    private volatile boolean found;

    public LibraryLoaders(String className) {
        this.classResource = className.replace('.', '/') + ".class";
    }

    @Override
    public boolean matches(ClassLoader loader) {
        if (loader == null) {
            return false; // the bootstrap loader holds the JDK and the agent's bridge, no library
        }
        Boolean sees = answers.get(loader);
        if (sees == null) {
            try {
                sees = loader.getResource(classResource) != null;
            } catch (RuntimeException e) {
                sees = false; // a loader that cannot answer is one the library is not in
            }
            answers.put(loader, sees);
            if (sees) {
                found = true;
            }
        }
        return sees;
    }

    /** Whether a loader that sees the library has turned up, or was given to {@link #matches} at install. */
    public boolean found() {
        return found;
    }
}
