package io.hopscope.testapps.servers;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * {@link ServerStudy} on an embedded Tomcat 10 or 11 ({@link EmbeddedTomcat}) with a jakarta
 * servlet; {@code virtual} as the argument: on virtual request threads ({@code useVirtualThreads},
 * Tomcat 10.1.? and later on JDK 21+), where no request waits for another's thread.
 * {@link TomcatJavaxApp} is the same on Tomcat 8.5 and 9.
 */
public final class TomcatApp {

    static volatile ServerStudy study;

    public static void main(String[] args) throws Exception {
        boolean virtual = args.length > 0 && args[0].equals("virtual");
        try (ServerStudy s = new ServerStudy()) {
            study = s;
            EmbeddedTomcat tomcat = new EmbeddedTomcat(virtual ? Map.of("useVirtualThreads", "true") : Map.of());
            tomcat.servlet("study", StudyServlet.class, "/*", false);
            String base = tomcat.start();
            s.queuedWhen(virtual ? () -> true : tomcat.queued());
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
