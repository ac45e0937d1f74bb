package io.hopscope.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isInterface;

import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * The class loaders that see a library, by one of its classes: an instrumentation's type rules
 * apply only there. A library may be in any loader and in several (a Spring Boot jar's, an
 * application server's, one the application made itself), so this is asked per loader, not once
 * of the agent's own. The first match of a type rule in a loader asks it once, with a resource
 * lookup that loads nothing; the answer is kept with the loader held weakly. A library added to a
 * loader after that first question (URLClassLoader#addURL) is not seen there.
 *
 * <p>A library may also be there relocated (see {@link Relocation}), once or several times: the
 * type rules made here ({@link #named}, {@link #subTypesOf}) match every copy, each in the loaders
 * that see that copy's own required class, and {@link #copiesFound} lists the relocated copies seen.
 * As an ElementMatcher of loaders it answers for the original copy only.
 */
public final class LibraryLoaders implements ElementMatcher<ClassLoader> {

    private final String requiredClass;
    private final String requiredClassOfCopy;
    private final String libraryPackage;
    /** Per loader, per prefix ("" for the original): whether the loader has that copy's required class. */
    private final Map<ClassLoader, Map<String, Boolean>> answers = Collections.synchronizedMap(new WeakHashMap<>());
    private final Set<String> copiesFound = ConcurrentHashMap.newKeySet();
    private volatile boolean found;

    public LibraryLoaders(String className) {
        this(className, className, null);
    }

    /**
     * {@code requiredClassOfCopy}: the class a relocated copy must have under its prefix (the
     * original's own required class may be another library's, not relocated with it);
     * {@code libraryPackage}: the library's root package, by which a class of a relocated copy is
     * recognised before any rule has matched in its loader (null: only by the rules' names).
     */
    public LibraryLoaders(String requiredClass, String requiredClassOfCopy, String libraryPackage) {
        this.requiredClass = requiredClass;
        this.requiredClassOfCopy = requiredClassOfCopy;
        this.libraryPackage = libraryPackage == null ? null : "." + libraryPackage + ".";
    }

    /** The loaders given to an instrumentation's extend: the LibraryLoaders they are, for a library's. */
    public static LibraryLoaders of(ElementMatcher<ClassLoader> libraryLoaders) {
        if (libraryLoaders instanceof LibraryLoaders) {
            return (LibraryLoaders) libraryLoaders;
        }
        throw new IllegalArgumentException("a library instrumentation needs its requiredClass: " + libraryLoaders);
    }

    @Override
    public boolean matches(ClassLoader loader) {
        return sees(loader, "");
    }

    /** Whether the loader has the copy of the library under this prefix ("" for the original). */
    public boolean sees(ClassLoader loader, String prefix) {
        if (loader == null) {
            return false; // the bootstrap loader holds the JDK and the agent's bridge, no library
        }
        Map<String, Boolean> byPrefix = answers.get(loader);
        if (byPrefix == null) {
            byPrefix = new ConcurrentHashMap<>(2);
            Map<String, Boolean> raced = answers.putIfAbsent(loader, byPrefix);
            if (raced != null) {
                byPrefix = raced;
            }
        }
        Boolean sees = byPrefix.get(prefix);
        if (sees == null) {
            String required = prefix.isEmpty() ? requiredClass : prefix + requiredClassOfCopy;
            try {
                sees = loader.getResource(required.replace('.', '/') + ".class") != null;
            } catch (RuntimeException e) {
                sees = false; // a loader that cannot answer is one the library is not in
            }
            byPrefix.put(prefix, sees);
            if (sees) {
                if (prefix.isEmpty()) {
                    found = true;
                } else {
                    copiesFound.add(prefix);
                }
            }
        }
        return sees;
    }

    /** Whether the loader has any copy of the library found so far. */
    private boolean seesAnyCopy(ClassLoader loader) {
        if (sees(loader, "")) {
            return true;
        }
        Map<String, Boolean> byPrefix = answers.get(loader);
        return byPrefix != null && byPrefix.containsValue(Boolean.TRUE);
    }

    /**
     * A class whose name holds the library's package after another one is looked at as a copy's
     * (one indexOf per class loaded, a resource lookup once per loader and prefix), so that the
     * sub type rules find that copy's classes in a loader where no named rule has matched yet.
     */
    private void notice(String typeName, ClassLoader loader) {
        if (libraryPackage == null) {
            return;
        }
        int at = typeName.indexOf(libraryPackage);
        if (at > 0) {
            sees(loader, typeName.substring(0, at + 1));
        }
    }

    /** Whether the original library has turned up in a loader, or was in the one given to {@link #matches} at install. */
    public boolean found() {
        return found;
    }

    /** The prefixes of the relocated copies found so far, each under the loaders that have its required class. */
    public Set<String> copiesFound() {
        return Set.copyOf(copiesFound);
    }

    /**
     * Classes of any copy of the library named {@code originalNames} (as the original names them),
     * in loaders that see that copy: a name test first, nothing resolved.
     */
    public CopyRule named(String... originalNames) {
        return new CopyRule() {
            @Override
            public String prefixOf(TypeDescription type) {
                return Relocation.prefixOf(type.getName(), originalNames);
            }

            @Override
            public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module,
                    Class<?> classBeingRedefined, ProtectionDomain domain) {
                String prefix = prefixOf(type);
                return prefix != null && sees(loader, prefix);
            }
        };
    }

    /**
     * Classes (not interfaces) that are, extend or implement {@code originalSuperType} of any copy,
     * among those {@code candidates} accepts (a name test: resolving a class's super types reads
     * their class files), in loaders that see a copy: the copy is the super type's.
     */
    public CopyRule subTypesOf(ElementMatcher<? super TypeDescription> candidates, String originalSuperType) {
        return new CopyRule() {
            @Override
            public String prefixOf(TypeDescription type) {
                return superTypePrefix(type, originalSuperType);
            }

            @Override
            public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module,
                    Class<?> classBeingRedefined, ProtectionDomain domain) {
                if (loader == null) {
                    return false;
                }
                notice(type.getName(), loader);
                if (!seesAnyCopy(loader) || !candidates.matches(type) || isInterface().matches(type)) {
                    return false;
                }
                String prefix = prefixOf(type);
                return prefix != null && sees(loader, prefix);
            }
        };
    }

    /** The prefix of the first super type (or the type itself) that is a copy of originalName, or null. */
    private static String superTypePrefix(TypeDescription type, String originalName) {
        for (String name : SuperTypeNames.of(type)) {
            String prefix = Relocation.prefixOf(name, originalName);
            if (prefix != null) {
                return prefix;
            }
        }
        return null;
    }

    /** A type rule that matches every copy of a library and tells which copy a type is of. */
    public interface CopyRule extends AgentBuilder.RawMatcher {
        /** The prefix of the copy the type is of ("" for the original), or null when it is none. */
        String prefixOf(TypeDescription type);
    }
}
