package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.settings.AgentOptions;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every instrumentation the agent has is one it installs: each class implementing
 * HopscopeInstrumentation under io.hopscope.agent.instrumentation lists itself in
 * META-INF/services, once, so that a new library cannot be written and left out.
 */
class InstrumentationListTest {

    @Test
    void everyInstrumentationClassListsItself() throws Exception {
        Path classes = Path.of(HopscopeInstrumentation.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> found;
        try (Stream<Path> files = Files.walk(classes.resolve("io/hopscope/agent/instrumentation"))) {
            found = files.map(p -> classes.relativize(p).toString())
                    .filter(name -> name.endsWith("Instrumentation.class") && !name.contains("$"))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .filter(InstrumentationListTest::isConcreteInstrumentation)
                    .sorted()
                    .collect(Collectors.toList());
        }
        List<String> listed = AgentInstaller.instrumentations(AgentOptions.parse("", p -> { })).stream()
                .map(each -> each.getClass().getName()).sorted().collect(Collectors.toList());
        assertThat(found).as("instrumentation classes").hasSizeGreaterThan(15);
        assertThat(listed).as("META-INF/services lists each one once").doesNotHaveDuplicates().isEqualTo(found);
    }

    private static boolean isConcreteInstrumentation(String name) {
        try {
            Class<?> type = Class.forName(name, false, InstrumentationListTest.class.getClassLoader());
            return HopscopeInstrumentation.class.isAssignableFrom(type) && !type.isInterface()
                    && !Modifier.isAbstract(type.getModifiers());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }
}
