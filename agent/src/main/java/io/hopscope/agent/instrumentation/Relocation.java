package io.hopscope.agent.instrumentation;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * A copy of a library relocated under another package (shaded into an SDK: grpc-netty-shaded's
 * {@code io.grpc.netty.shaded.io.netty}, reactor-netty's {@code reactor.netty.internal.shaded.reactor.pool}),
 * found by what relocation keeps: a class's original name as the suffix of its name. The prefix
 * before it ({@code io.grpc.netty.shaded.}, with its dot; empty for the original) names the copy.
 *
 * <p>Code of the agent's that names a library's classes (advice inlined into them, helpers defined
 * for each copy) is rewritten for a relocated copy the way the shade plugin rewrote the library:
 * each class it names that the copy's loader has under the prefix is renamed there. Names the copy
 * left alone (a relocated Reactor beside the original Reactive Streams) stay as they are.
 */
public final class Relocation {

    private Relocation() {
    }

    /**
     * The prefix under which {@code typeName} is a copy of {@code originalName}: "" for the
     * original itself, {@code com.example.shaded.} for {@code com.example.shaded.<originalName>},
     * null when it is neither. Two string tests, no allocation unless relocated: it runs on every
     * class loaded.
     */
    public static String prefixOf(String typeName, String originalName) {
        int prefixLength = typeName.length() - originalName.length();
        if (prefixLength == 0) {
            return typeName.equals(originalName) ? "" : null;
        }
        if (prefixLength > 0 && typeName.charAt(prefixLength - 1) == '.' && typeName.endsWith(originalName)) {
            return typeName.substring(0, prefixLength);
        }
        return null;
    }

    /** The prefix of the first of the original names that typeName is a copy of, or null. */
    public static String prefixOf(String typeName, String... originalNames) {
        for (String original : originalNames) {
            String prefix = prefixOf(typeName, original);
            if (prefix != null) {
                return prefix;
            }
        }
        return null;
    }

    /**
     * A class file of the agent's (advice, helper) with every class it names that {@code library}
     * has under {@code prefix} renamed there; the agent's own and the JDK's classes are kept.
     */
    static byte[] remap(byte[] classFile, String prefix, ClassLoader library) {
        if (prefix.isEmpty()) {
            return classFile;
        }
        String internalPrefix = prefix.replace('.', '/');
        Map<String, String> renamed = new ConcurrentHashMap<>();
        Remapper remapper = new Remapper(OpenedClassReader.ASM_API) {
            @Override
            public String map(String internalName) {
                if (internalName.startsWith("java/") || internalName.startsWith("javax/")
                        || internalName.startsWith("jdk/") || internalName.startsWith("sun/")
                        || internalName.startsWith("io/hopscope/agent/") || library == null) {
                    return internalName;
                }
                return renamed.computeIfAbsent(internalName, name ->
                        library.getResource(internalPrefix + name + ".class") != null ? internalPrefix + name : name);
            }
        };
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassRemapper(writer, remapper), 0);
        return writer.toByteArray();
    }

    /**
     * A class file with every name in package {@code from} (and its subpackages) put in package
     * {@code to}: one helper for an API published in two packages (jakarta.servlet, javax.servlet).
     */
    static byte[] renamePackage(byte[] classFile, String from, String to) {
        String internalFrom = from.replace('.', '/') + "/";
        String internalTo = to.replace('.', '/') + "/";
        Remapper remapper = new Remapper(OpenedClassReader.ASM_API) {
            @Override
            public String map(String internalName) {
                return internalName.startsWith(internalFrom)
                        ? internalTo + internalName.substring(internalFrom.length()) : internalName;
            }
        };
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassRemapper(writer, remapper), 0);
        return writer.toByteArray();
    }

    /** The agent's class file for one of its classes. */
    static byte[] classFileOf(String className) {
        try {
            return ClassFileLocator.ForClassLoader.read(Class.forName(className, false, Relocation.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the agent's own class " + className + " is missing", e);
        }
    }

    /**
     * An advice class that names a library's classes, for each copy of the library: the class as
     * compiled for the original, and for a relocated copy the same advice rewritten to name that
     * copy's classes (built once per prefix). Byte Buddy reads an advice's methods from its class
     * file, so the rewritten one needs no class of its own: it is never loaded, only inlined.
     */
    public static final class AdviceForCopies {
        private final Class<?> adviceClass;
        private final Advice original;
        private final Map<String, Advice> byPrefix = new ConcurrentHashMap<>();

        public AdviceForCopies(Class<?> adviceClass) {
            this.adviceClass = adviceClass;
            this.original = Advice.to(adviceClass);
        }

        /** The advice for the copy that {@code type} is of (prefix from the type's rule). */
        public Advice forCopy(String prefix, ClassLoader library) {
            if (prefix == null || prefix.isEmpty()) {
                return original;
            }
            return byPrefix.computeIfAbsent(prefix, p -> {
                String name = adviceClass.getName();
                byte[] remapped = remap(classFileOf(name), p, library);
                ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, remapped),
                        ClassFileLocator.ForClassLoader.of(adviceClass.getClassLoader()));
                TypeDescription advice = TypePool.Default.of(locator).describe(name).resolve();
                return Advice.to(advice, locator);
            });
        }
    }
}
