package io.hopscope.agent.instrumentation.servlet;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.instrumentation.tomcat.TomcatInstrumentation;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.ServerStudy;
import java.io.File;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spring MVC 7 on Tomcat 11 (SpringMvcApp): the orders are named by their route, the best-matching
 * pattern Spring keeps in the request's attributes, read at the servlet layer's exit (ServerChecks).
 */
class SpringMvcRouteIT {

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void ordersAreNamedByTheirRoute(String java) throws Exception {
        String tomcat = SupportedVersions.module("tomcat", new TomcatInstrumentation().versions().newest());
        ServerChecks.check(java, new ServerChecks.Expected("SpringMvcApp", "org.apache.coyote.Adapter#service")
                .classPath(LibraryVersions.classPath(tomcat) + File.pathSeparator
                        + LibraryVersions.classPath("spring-webmvc-7.0.10"))
                .name(path -> path.startsWith(ServerStudy.ORDERS) ? "GET /orders/{id}" : "GET " + path)
                .queue("http-nio-.*-Poller", "http-nio-.*-exec-"));
    }
}
