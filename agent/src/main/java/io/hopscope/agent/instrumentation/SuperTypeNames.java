package io.hopscope.agent.instrumentation;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;

/**
 * The names of a class's super types (the class itself, its super classes and every interface they
 * implement, erased), read once per class loaded and shared by every rule that asks. Byte Buddy
 * gives each rule of the agent the same description of the class being loaded, one rule after the
 * other on the loading thread: the sub type rules of okhttp, azure-core, the Apache clients and the
 * generic executors would otherwise each walk the same hierarchy, resolving every super type's
 * generic signature again, for every class the application loads.
 *
 * <p>The last class's names are kept per thread, the class held weakly (a description of a loaded
 * class holds its class, and so its class loader). A hierarchy that cannot be resolved completely
 * (a super type whose class file is missing) keeps the names found before the failure; the rules
 * then match on those, as Byte Buddy's fail-safe matchers did not, and the transformation itself
 * reports any failure as an AgentError.
 */
public final class SuperTypeNames {

    private static final ThreadLocal<Last> LAST = new ThreadLocal<>();

    private SuperTypeNames() {
    }

    /** The names of the type's super types, itself first, each once. */
    public static List<String> of(TypeDescription type) {
        Last last = LAST.get();
        if (last != null && last.type.get() == type) {
            return last.names;
        }
        List<String> names = new ArrayList<>(8);
        try {
            collect(type, names);
        } catch (RuntimeException | LinkageError e) {
            // Unresolvable beyond this point: the names found so far.
        }
        LAST.set(new Last(new WeakReference<>(type), names));
        return names;
    }

    /** Whether the type is, extends or implements the named type. */
    public static boolean has(TypeDescription type, String name) {
        return of(type).contains(name);
    }

    private static void collect(TypeDefinition type, List<String> names) {
        for (TypeDefinition t = type; t != null; t = t.getSuperClass()) {
            String name = t.asErasure().getName();
            if (names.contains(name)) {
                return; // a super class seen already, through another path: its super types too
            }
            names.add(name);
            for (TypeDescription.Generic i : t.getInterfaces()) {
                if (!names.contains(i.asErasure().getName())) {
                    collect(i, names);
                }
            }
        }
    }

    private static final class Last {
        final WeakReference<TypeDescription> type;
        final List<String> names;

        Last(WeakReference<TypeDescription> type, List<String> names) {
            this.type = type;
            this.names = names;
        }
    }
}
