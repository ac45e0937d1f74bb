package io.hopscope.agent.instrumentation.servlet;

import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.ServerChecks;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Servlet API where no container's hook begins the request (Tomcat's switched off,
 * {@code disable=tomcat}): the outermost Servlet#service does, on each end of both APIs' ranges,
 * each on a Tomcat of that Servlet version (ServerChecks). The poller's hand-over is still its
 * server queue (a library's rules hold where its hooks are off); the failing servlet's exception
 * out of it, before its response was committed, is its outcome and the container's 500.
 */
class ServletIT {

    static Stream<Arguments> jakarta() {
        return LibraryVersions.ends("servlet-jakarta", new JakartaServletInstrumentation().versions());
    }

    static Stream<Arguments> javax() {
        return LibraryVersions.ends("servlet-javax", new JavaxServletInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} jakarta.servlet {1}")
    @MethodSource("jakarta")
    void jakartaServletsBeginRequests(String java, String version, String classPath) throws Exception {
        check(java, "TomcatApp", "jakarta.servlet.Servlet#service", classPath);
    }

    @ParameterizedTest(name = "{0} javax.servlet {1}")
    @MethodSource("javax")
    void javaxServletsBeginRequests(String java, String version, String classPath) throws Exception {
        check(java, "TomcatJavaxApp", "javax.servlet.Servlet#service", classPath);
    }

    private static void check(String java, String app, String boundary, String classPath) throws Exception {
        ServerChecks.check(java, new ServerChecks.Expected(app, boundary)
                .classPath(classPath)
                .options(",disable=tomcat")
                .queue("http-nio-.*-(Client)?Poller", "http-nio-.*-exec-"));
    }
}
