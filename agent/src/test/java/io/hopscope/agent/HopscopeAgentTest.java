package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The start-up check of the class the manifest names, for the JDKs this machine cannot run: which
 * {@code java.version} it refuses, with which line, and which it lets through.
 */
class HopscopeAgentTest {

    @Test
    void refusesEveryJdkBefore11WithOneLineNamingIt() {
        assertThat(HopscopeAgent.refusal("1.8.0_402"))
                .isEqualTo("hopscope: needs JDK 11 or later, this is 1.8.0_402; the application runs without it");
        assertThat(HopscopeAgent.refusal("1.7.0_80")).contains("this is 1.7.0_80;");
        assertThat(HopscopeAgent.refusal("9")).contains("this is 9;");
        assertThat(HopscopeAgent.refusal("9.0.4")).contains("this is 9.0.4;");
        assertThat(HopscopeAgent.refusal("10.0.2")).contains("this is 10.0.2;");
        assertThat(HopscopeAgent.refusal("1.8.0_402-ea")).contains("this is 1.8.0_402-ea;");
        assertThat(HopscopeAgent.refusal("1.8")).contains("this is 1.8;");
    }

    @Test
    void letsEveryJdkFrom11On() {
        assertThat(HopscopeAgent.refusal("11")).isNull();
        assertThat(HopscopeAgent.refusal("11.0.13")).isNull();
        assertThat(HopscopeAgent.refusal("11-internal")).isNull();
        assertThat(HopscopeAgent.refusal("17")).isNull();
        assertThat(HopscopeAgent.refusal("17.0.15")).isNull();
        assertThat(HopscopeAgent.refusal("21.0.8+9-LTS")).isNull();
        assertThat(HopscopeAgent.refusal("25-ea")).isNull();
        assertThat(HopscopeAgent.refusal("26")).isNull();
        assertThat(HopscopeAgent.refusal(System.getProperty("java.version"))).isNull();
    }

    @Test
    void aVersionItCannotReadIsNoReasonToRefuse() {
        // The start goes on: on a JVM too old for the agent's classes, loading them fails, and that
        // is one line too (HopscopeAgent#start).
        assertThat(HopscopeAgent.refusal(null)).isNull();
        assertThat(HopscopeAgent.refusal("")).isNull();
        assertThat(HopscopeAgent.refusal("  ")).isNull();
        assertThat(HopscopeAgent.refusal("ea")).isNull();
        assertThat(HopscopeAgent.refusal("openjdk")).isNull();
        assertThat(HopscopeAgent.refusal("1.")).isNull();
        assertThat(HopscopeAgent.refusal("99999999999999999999")).isNull();
    }

    @Test
    void readsTheFeatureReleaseOfEachScheme() {
        assertThat(HopscopeAgent.feature("1.8.0_402")).isEqualTo(8);
        assertThat(HopscopeAgent.feature("1.6.0_45")).isEqualTo(6);
        assertThat(HopscopeAgent.feature("9")).isEqualTo(9);
        assertThat(HopscopeAgent.feature("10.0.2")).isEqualTo(10);
        assertThat(HopscopeAgent.feature("11.0.13")).isEqualTo(11);
        assertThat(HopscopeAgent.feature("17")).isEqualTo(17);
        assertThat(HopscopeAgent.feature("25-ea")).isEqualTo(25);
        assertThat(HopscopeAgent.feature(" 21.0.2 ")).isEqualTo(21);
        assertThat(HopscopeAgent.feature("x11")).isEqualTo(-1);
        assertThat(HopscopeAgent.feature("١١")).as("digits other than ASCII's").isEqualTo(-1);
    }
}
