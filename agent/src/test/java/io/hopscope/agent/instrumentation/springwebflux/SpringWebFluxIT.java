package io.hopscope.agent.instrumentation.springwebflux;

import io.hopscope.agent.instrumentation.reactornetty.ReactorNettyServerInstrumentation;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.ServerStudy;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spring WebFlux on reactor-netty without Spring Boot (WebFluxApp), on the oldest and the newest
 * tested spring-webflux and both JDKs: the study (ServerChecks), each order named by its
 * {@code @GetMapping}'s route template, the failing handler's 500 (WebFlux answers it) an error.
 */
class SpringWebFluxIT {

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("spring-webflux", new SpringWebFluxInstrumentation().versions());
    }

    @ParameterizedTest(name = "spring-webflux {1} on {0}")
    @MethodSource("ends")
    void anOrderIsNamedByItsRouteTemplate(String java, String version, String classPath) throws Exception {
        ServerChecks.check(java, new ServerChecks.Expected("WebFluxApp", ReactorNettyServerInstrumentation.BOUNDARY)
                .classPath(classPath)
                .queue(null, "study-loop")
                .name(path -> path.startsWith(ServerStudy.ORDERS) ? "GET /orders/{id}" : "GET " + path));
    }
}
