package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.settings.AgentOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Every library instrumentation declares the range of versions it supports, and the JDK's none; every
 * range declared is tested at both ends: testlibs has a module for each end (listed in
 * testlibs/pom.xml), whose pom asks for the library's artifact at exactly that version.
 */
class SupportedVersionsTest {

    private static final Path TESTLIBS = Path.of(System.getProperty("hopscope.testlibs", "../testlibs"));

    @Test
    void eachLibraryDeclaresItsVersionsAndTheJdksNone() {
        for (HopscopeInstrumentation each : AgentInstaller.instrumentations(AgentOptions.parse("", p -> { }))) {
            if (each.requiredClass() == null) {
                assertThat(each.versions()).as(each.name() + ", the JDK's, declares no library versions").isNull();
            } else {
                assertThat(each.versions()).as(each.name() + " (needs " + each.requiredClass()
                        + ") declares the versions it supports, tested at both ends (versions())").isNotNull();
            }
        }
    }

    @Test
    void eachDeclaredEndHasItsTestlibsModule() throws Exception {
        String aggregator = Files.readString(TESTLIBS.resolve("pom.xml"));
        for (HopscopeInstrumentation each : AgentInstaller.instrumentations(AgentOptions.parse("", p -> { }))) {
            SupportedVersions versions = each.versions();
            if (versions == null) {
                continue;
            }
            String[] coordinates = versions.artifact().split(":");
            assertThat(coordinates).as(each.name() + "'s artifact, groupId:artifactId").hasSize(2);
            for (String version : new String[] {versions.oldest(), versions.newest()}) {
                String module = SupportedVersions.module(each.name(), version);
                assertThat(aggregator).as("testlibs/pom.xml lists " + module).contains("<module>" + module + "</module>");
                String pom = Files.readString(TESTLIBS.resolve(module).resolve("pom.xml"));
                assertThat(pom).as(module + "/pom.xml asks for " + versions.artifact() + " " + version)
                        .containsPattern("<groupId>" + coordinates[0].replace(".", "\\.") + "</groupId>\\s*<artifactId>"
                                + coordinates[1] + "</artifactId>\\s*<version>" + version.replace(".", "\\.") + "</version>");
            }
        }
    }
}
