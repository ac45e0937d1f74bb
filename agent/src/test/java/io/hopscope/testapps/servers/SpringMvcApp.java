package io.hopscope.testapps.servers;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.apache.catalina.startup.Tomcat;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * {@link ServerStudy} on Spring MVC (a DispatcherServlet with an annotated {@code @RestController},
 * no Spring Boot) on an embedded Tomcat 11: its orders are one route, {@code /orders/{id}}.
 */
public final class SpringMvcApp {

    static volatile ServerStudy study;

    public static void main(String[] args) throws Exception {
        try (ServerStudy s = new ServerStudy()) {
            study = s;
            EmbeddedTomcat tomcat = new EmbeddedTomcat(Map.of());
            AnnotationConfigWebApplicationContext spring = new AnnotationConfigWebApplicationContext();
            spring.register(Web.class);
            Tomcat.addServlet(tomcat.context(), "dispatcher", new DispatcherServlet(spring)).setLoadOnStartup(1);
            tomcat.mapping("dispatcher", "/");
            String base = tomcat.start();
            s.queuedWhen(tomcat.queued());
            s.run(base);
            tomcat.stop();
        }
    }

    /** Spring MVC with the study's controller. */
    @Configuration
    @EnableWebMvc
    public static class Web {
        @Bean
        public Orders orders() {
            return new Orders();
        }
    }

    /** The study's handler, at one route. */
    @RestController
    public static class Orders {
        @GetMapping("/orders/{id}")
        public String order(@PathVariable("id") String id, HttpServletRequest request) throws Exception {
            return study.handle(request.getRequestURI());
        }

        @GetMapping(ServerStudy.FAIL)
        public String fail(HttpServletRequest request) throws Exception {
            return study.handle(request.getRequestURI());
        }
    }
}
