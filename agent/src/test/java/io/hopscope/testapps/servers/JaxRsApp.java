package io.hopscope.testapps.servers;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * {@link ServerStudy} on JAX-RS ({@code jakarta.ws.rs}): Jersey 3 or 4 as a servlet on an embedded
 * Tomcat 10.1 or 11, its application mapped at {@link #APP}: the orders are one resource method,
 * {@code /orders/{id}}; then the {@link RouteProbes} (a path no resource matches, and
 * {@code /orders/{id}/items/{item: [0-9]+}} through a sub-resource locator). {@link JaxRsJavaxApp}
 * is the same on {@code javax.ws.rs}.
 */
public final class JaxRsApp {

    /** Where the application is mapped (the Jersey servlet's mapping, less its "/*"). */
    public static final String APP = "/api";

    static volatile ServerStudy study;

    public static void main(String[] args) throws Exception {
        try (ServerStudy s = new ServerStudy()) {
            study = s;
            EmbeddedTomcat tomcat = new EmbeddedTomcat(Map.of());
            Wrapper jersey = Tomcat.addServlet(tomcat.context(), "jersey", "org.glassfish.jersey.servlet.ServletContainer");
            jersey.addInitParameter("jakarta.ws.rs.Application", Api.class.getName());
            jersey.setLoadOnStartup(1);
            tomcat.mapping("jersey", APP + "/*");
            String base = tomcat.start();
            s.queuedWhen(tomcat.queued());
            s.run(base + APP);
            RouteProbes.send(base + APP);
            tomcat.stop();
        }
    }

    /** The application: its resources. */
    public static class Api extends Application {
        @Override
        public Set<Class<?>> getClasses() {
            return Set.of(Orders.class, Fail.class);
        }
    }

    /** The study's handler at one route; the items of an order through a sub-resource locator. */
    @Path("/orders")
    public static class Orders {
        @GET
        @Path("/{id}")
        @Produces("text/plain")
        public String order(@PathParam("id") String id) throws Exception {
            return study.handle(ServerStudy.ORDERS + id);
        }

        @Path("{id}/items/")
        public Items items(@PathParam("id") String id) {
            return new Items();
        }
    }

    /** A sub-resource: no path of its own, its locator's. */
    public static class Items {
        @GET
        @Path("{item: [0-9]+}")
        @Produces("text/plain")
        public String item(@PathParam("item") String item) {
            return "item " + item;
        }
    }

    /** The study's failing handler: its exception, unmapped, is the container's 500. */
    @Path(ServerStudy.FAIL)
    public static class Fail {
        @GET
        @Produces("text/plain")
        public String fail() throws Exception {
            return study.handle(ServerStudy.FAIL);
        }
    }
}
