package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.testing.AgentRun;
import io.hopscope.agent.testing.Handovers;
import java.util.List;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent keeps its shaded Byte Buddy out of C2 from premain with one compiler directive, and
 * only that package; it creates no MBean server for it; {@code -Dhopscope.c2=true} leaves the JIT
 * alone. On this JDK and the second one (HOPSCOPE_JDK2), whose internals could differ.
 */
@Isolated("it measures the JIT's work")
class StartupJitIT {

    private static final String APP = "io.hopscope.testapps.CompilerDirectivesApp";

    static java.util.stream.Stream<String> jvms() {
        return Handovers.jvms();
    }

    @ParameterizedTest
    @MethodSource("jvms")
    void byteBuddyIsExcludedFromC2AndNothingElse(String java) throws Exception {
        AgentRun run = AgentRun.runWithDefaultJvm(java, "", List.of("-Dhopscope.debug=true", "-cp",
                System.getProperty("hopscope.test.classes"), APP));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stderr).contains("hopscope: C2 off for io/hopscope/agent/shaded/ (1 compiler directives added)");
        assertThat(run.stdout).contains("mbean servers at main: 0");
        // Our directive on top of the default one: C2 excluded, C1 left to the default (Enable:false).
        String ours = run.stdout.substring(run.stdout.indexOf("Directive:"), run.stdout.indexOf("Directive: (default)"));
        assertThat(ours).contains("matching: io/hopscope/agent/shaded/*.*");
        assertThat(ours.substring(ours.indexOf("c1 directives:"), ours.indexOf("c2 directives:")))
                .contains("Enable:false");
        assertThat(ours.substring(ours.indexOf("c2 directives:"))).contains("Enable:true Exclude:true");
        assertThat(run.stdout.substring(run.stdout.indexOf("Directive: (default)"))).doesNotContain("Exclude:true");
    }

    @ParameterizedTest
    @MethodSource("jvms")
    void keepingC2AddsNoDirective(String java) throws Exception {
        AgentRun run = AgentRun.runWithDefaultJvm(java, "", List.of("-Dhopscope.debug=true", "-Dhopscope.c2=true", "-cp",
                System.getProperty("hopscope.test.classes"), APP));
        assertThat(run.exitCode).as(run.stderr).isZero();
        assertThat(run.stderr).contains("hopscope: C2 kept for Byte Buddy (-Dhopscope.c2=true)");
        assertThat(run.stdout).contains("Directive: (default)").doesNotContain("io/hopscope/agent/shaded/")
                .doesNotContain("Exclude:true");
    }
}
