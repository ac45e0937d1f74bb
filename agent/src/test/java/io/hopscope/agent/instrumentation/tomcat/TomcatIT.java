package io.hopscope.agent.instrumentation.tomcat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.ServerChecks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tomcat's connector: each request is an inbound request from CoyoteAdapter#service, begun where the
 * poller handed its connection to the connector's executor (ServerChecks), on the oldest release
 * supported (9.0.1, with a javax servlet) and the newest tested (11, jakarta). The failing servlet's
 * exception is the container's 500, and the request's outcome.
 */
public class TomcatIT {

    /** The poller's thread (one "-Poller" since 9.0.?, "-ClientPoller-N" before) and the executor's. */
    static final String POLLER = "http-nio-.*-(Client)?Poller";
    static final String WORKERS = "http-nio-.*-exec-";

    static Stream<Arguments> ends() {
        SupportedVersions versions = new TomcatInstrumentation().versions();
        return LibraryVersions.ends("tomcat", versions);
    }

    @ParameterizedTest(name = "{0} Tomcat {1}")
    @MethodSource("ends")
    void aRequestIsARequestFromThePollersHandOver(String java, String version, String classPath) throws Exception {
        ServerChecks.check(java, expected(version, classPath));
    }

    /** The study on the newest Tomcat tested. */
    public static ServerChecks.Expected newest() {
        String newest = new TomcatInstrumentation().versions().newest();
        return expected(newest, LibraryVersions.classPath(SupportedVersions.module("tomcat", newest)));
    }

    /** The study on Tomcat {@code version}, its libraries at {@code classPath}. */
    public static ServerChecks.Expected expected(String version, String classPath) {
        return new ServerChecks.Expected(version.startsWith("9.") ? "TomcatJavaxApp" : "TomcatApp",
                TomcatInstrumentation.BOUNDARY)
                .classPath(classPath)
                .queue(POLLER, WORKERS);
    }
}
