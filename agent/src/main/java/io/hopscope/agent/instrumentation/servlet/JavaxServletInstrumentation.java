package io.hopscope.agent.instrumentation.servlet;

import io.hopscope.agent.instrumentation.SupportedVersions;
import java.util.List;

/**
 * The Servlet API in {@code javax.servlet} (3.0 and later): see {@link ServletInstrumentation}. Its
 * package is under {@code javax.}, which the agent otherwise leaves alone as the JDK's.
 */
public final class JavaxServletInstrumentation extends ServletInstrumentation {

    public JavaxServletInstrumentation() {
        super("javax.servlet");
    }

    @Override
    public String name() {
        return "servlet-javax";
    }

    /**
     * Every class and method the rules name is Servlet 3.0's; the oldest container tested is
     * Tomcat 8.5 (3.1), the newest Tomcat 9 (4.0).
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("javax.servlet:javax.servlet-api", "3.1.0", "4.0.1");
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("javax.servlet.");
    }
}
