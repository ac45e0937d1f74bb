package io.hopscope.agent.instrumentation.servlet;

import io.hopscope.agent.instrumentation.SupportedVersions;

/** The Servlet API in {@code jakarta.servlet} (5.0 and later): see {@link ServletInstrumentation}. */
public final class JakartaServletInstrumentation extends ServletInstrumentation {

    public JakartaServletInstrumentation() {
        super("jakarta.servlet");
    }

    @Override
    public String name() {
        return "servlet-jakarta";
    }

    /** Tested on Tomcat 10.0 (Servlet 5.0) and 11 (6.1). */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("jakarta.servlet:jakarta.servlet-api", "5.0.0", "6.1.0");
    }
}
