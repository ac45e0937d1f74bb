package io.hopscope.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/** The names of a class's super types, read once and shared by every rule that asks about that class. */
class SuperTypeNamesTest {

    @Test
    void namesTheClassItsSuperClassesAndEveryInterfaceOnce() {
        TypeDescription type = TypeDescription.ForLoadedType.of(ScheduledThreadPoolExecutor.class);

        List<String> names = SuperTypeNames.of(type);

        assertThat(names.get(0)).isEqualTo("java.util.concurrent.ScheduledThreadPoolExecutor");
        assertThat(names).contains("java.util.concurrent.ThreadPoolExecutor",
                "java.util.concurrent.AbstractExecutorService", "java.util.concurrent.ScheduledExecutorService",
                "java.util.concurrent.ExecutorService", "java.util.concurrent.Executor", "java.lang.Object")
                .doesNotHaveDuplicates();
        assertThat(SuperTypeNames.has(type, "java.util.concurrent.Executor")).isTrue();
        assertThat(SuperTypeNames.has(type, "java.util.concurrent.ForkJoinPool")).isFalse();
    }

    @Test
    void theRulesAskingAboutOneClassShareOneWalk() {
        TypeDescription pool = TypeDescription.ForLoadedType.of(ScheduledThreadPoolExecutor.class);
        TypeDescription other = TypeDescription.ForLoadedType.of(java.util.ArrayList.class);

        List<String> first = SuperTypeNames.of(pool);

        assertThat(SuperTypeNames.of(pool)).isSameAs(first);
        assertThat(SuperTypeNames.of(other)).isNotSameAs(first).contains("java.util.List");
    }

    @Test
    void aSuperTypeThatCannotBeResolvedKeepsTheNamesFoundBeforeIt() {
        // x.Task extends x.Missing (no class file anywhere) and implements Runnable.
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, "x/Task", null, "x/Missing",
                new String[] {"java/lang/Runnable"});
        writer.visitEnd();
        byte[] task = writer.toByteArray();
        TypePool pool = TypePool.Default.of(new ClassFileLocator.Compound(ClassFileLocator.Simple.of("x.Task", task),
                ClassFileLocator.ForClassLoader.ofSystemLoader()));

        List<String> names = SuperTypeNames.of(pool.describe("x.Task").resolve());

        assertThat(names).startsWith("x.Task", "java.lang.Runnable").doesNotContain("java.lang.Object");
    }
}
