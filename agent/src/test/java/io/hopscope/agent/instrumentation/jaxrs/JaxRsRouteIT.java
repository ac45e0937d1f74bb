package io.hopscope.agent.instrumentation.jaxrs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.instrumentation.tomcat.TomcatInstrumentation;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.Requests;
import io.hopscope.agent.testing.ServerChecks;
import io.hopscope.testapps.servers.JaxRsApp;
import io.hopscope.testapps.servers.RouteProbes;
import io.hopscope.testapps.servers.ServerStudy;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JAX-RS on Jersey as a servlet on Tomcat (JaxRsApp, JaxRsJavaxApp), on each tested end of
 * Jersey's range: 2.26 ({@code javax.ws.rs}) on Tomcat 9, 4.0.2 ({@code jakarta.ws.rs}) on Tomcat 11.
 * Tomcat begins each request and Jersey's dispatch names it: the study's orders by their resource
 * method's route under the servlet's mapping, {@code GET /api/orders/{id}}, with everything else
 * ServerChecks asks of a server; a request no resource matched keeps its path (404); one through a
 * sub-resource locator is named by the locator's route and the sub-resource method's path, the
 * latter's regular expression left out.
 */
class JaxRsRouteIT {

    static final String ORDERS_ROUTE = "GET " + JaxRsApp.APP + "/orders/{id}";

    static Stream<Arguments> ends() {
        return LibraryVersions.ends("jaxrs-jersey", new JerseyInstrumentation().versions());
    }

    @ParameterizedTest(name = "{0} Jersey {1}")
    @MethodSource("ends")
    void requestsAreNamedByTheirResourceMethodsRoute(String java, String version, String classPath) throws Exception {
        boolean javax = version.startsWith("2.");
        SupportedVersions tomcats = new TomcatInstrumentation().versions();
        String tomcat = SupportedVersions.module("tomcat", javax ? tomcats.oldest() : tomcats.newest());
        ServerChecks.Checked checked = ServerChecks.check(java,
                new ServerChecks.Expected(javax ? "JaxRsJavaxApp" : "JaxRsApp", "org.apache.coyote.Adapter#service")
                        .classPath(LibraryVersions.classPath(tomcat) + File.pathSeparator + classPath)
                        .name(path -> path.startsWith(ServerStudy.ORDERS) ? ORDERS_ROUTE : "GET " + JaxRsApp.APP + path)
                        .queue("http-nio-.*-(Client)?Poller", "http-nio-.*-exec-"));
        String what = "Jersey " + version + " on " + java;
        assertThat(checked.run.stdout).as(what + ": the probes' answers")
                .contains("probe " + RouteProbes.traceId(RouteProbes.UNMATCHED_TRACE) + " " + RouteProbes.UNMATCHED + " status 404")
                .contains("probe " + RouteProbes.traceId(RouteProbes.LOCATOR_TRACE) + " " + RouteProbes.LOCATOR + " status 200");

        Requests.Request unmatched = probe(checked, RouteProbes.UNMATCHED_TRACE);
        assertThat(unmatched.request.getString("name")).as(what + ": no resource matched, the path")
                .isEqualTo("GET " + JaxRsApp.APP + RouteProbes.UNMATCHED);
        assertThat(unmatched.request.getInt("statusCode")).as(what).isEqualTo(404);

        Requests.Request located = probe(checked, RouteProbes.LOCATOR_TRACE);
        assertThat(located.request.getString("name")).as(what + ": through the sub-resource locator")
                .isEqualTo("GET " + JaxRsApp.APP + "/orders/{id}/items/{item}");
        assertThat(located.request.getInt("statusCode")).as(what).isEqualTo(200);
    }

    /** The one server request of probe {@code n}'s trace. */
    private static Requests.Request probe(ServerChecks.Checked checked, int n) throws Exception {
        String traceId = RouteProbes.traceId(n);
        List<Requests.Request> found = new ArrayList<>();
        for (Requests.Request r : Requests.byId(checked.run.events()).values()) {
            if (r.request != null && "server".equals(r.request.getString("kind"))
                    && traceId.equals(r.request.getString("traceId"))) {
                found.add(r);
            }
        }
        assertThat(found).as("the request of probe trace %s", traceId).hasSize(1);
        return found.get(0);
    }
}
