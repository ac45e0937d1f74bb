package io.hopscope.testapps.servers;

import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** {@link TomcatApp} with a javax servlet, on Tomcat 8.5 and 9. */
public final class TomcatJavaxApp {

    static volatile ServerStudy study;

    public static void main(String[] args) throws Exception {
        try (ServerStudy s = new ServerStudy()) {
            study = s;
            EmbeddedTomcat tomcat = new EmbeddedTomcat(Map.of());
            tomcat.servlet("study", StudyServlet.class, "/*", false);
            String base = tomcat.start();
            s.queuedWhen(tomcat.queued());
            s.run(base);
            tomcat.stop();
        }
    }

    /** The study's handler; its exception, a ServletException, is the container's 500. */
    public static final class StudyServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            String body;
            try {
                body = study.handle(request.getRequestURI());
            } catch (Exception e) {
                throw new ServletException(e);
            }
            response.setContentType("text/plain");
            response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        }
    }
}
