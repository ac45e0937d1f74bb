package io.hopscope.testapps.servers;

import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.Application;
import java.util.Map;
import java.util.Set;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * {@link JaxRsApp} on {@code javax.ws.rs}: Jersey 2 as a servlet on an embedded Tomcat 8.5 or 9.
 */
public final class JaxRsJavaxApp {

    /** Where the application is mapped (the Jersey servlet's mapping, less its "/*"). */
    public static final String APP = JaxRsApp.APP;

    static volatile ServerStudy study;

    public static void main(String[] args) throws Exception {
        try (ServerStudy s = new ServerStudy()) {
            study = s;
            EmbeddedTomcat tomcat = new EmbeddedTomcat(Map.of());
            Wrapper jersey = Tomcat.addServlet(tomcat.context(), "jersey", "org.glassfish.jersey.servlet.ServletContainer");
            jersey.addInitParameter("javax.ws.rs.Application", Api.class.getName());
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
