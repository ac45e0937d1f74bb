package io.hopscope.testapps.servers;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * An embedded Tomcat for the servers' test apps, on any release from 8.5 to 11: it names its
 * servlets by class, and calls nothing whose signature names a servlet type, so that one build runs
 * the javax apps on Tomcat 8.5 and 9 and the jakarta ones on 10 and 11. One connector on
 * 127.0.0.1, an ephemeral port, {@link ServerStudy#SERVER_THREADS} request threads, and one request
 * per connection ({@code maxKeepAliveRequests=1}): on a kept-alive connection, a request that
 * arrives while its thread is finishing the previous one is read by that thread without going back
 * to the poller, so it would have no hand-over, which the study asserts for every request. The
 * connections beyond the threads wait in the executor's queue: {@code maxConnections} (8192 for NIO
 * since 9, 10000 on 8.5) accepts them and the poller hands each to the executor.
 */
public final class EmbeddedTomcat {

    private final Tomcat tomcat = new Tomcat();
    private final Context context;

    /** {@code properties}: more connector properties ({@code useVirtualThreads}), after the defaults. */
    public EmbeddedTomcat(Map<String, String> properties) throws Exception {
        File base = Files.createTempDirectory("tomcat").toFile();
        base.deleteOnExit();
        tomcat.setBaseDir(base.getAbsolutePath());
        // The application's servlets are found by name through the loader that has this class (the
        // system one, or a program's own where io.hopscope.testapps.ChaosApp runs it): Tomcat's default
        // is the system loader, where a program of ChaosApp's has no class.
        tomcat.getServer().setParentClassLoader(EmbeddedTomcat.class.getClassLoader());
        tomcat.setPort(0);
        Connector connector = tomcat.getConnector();
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxThreads", String.valueOf(ServerStudy.SERVER_THREADS));
        connector.setProperty("minSpareThreads", String.valueOf(ServerStudy.SERVER_THREADS));
        connector.setProperty("maxKeepAliveRequests", "1");
        properties.forEach(connector::setProperty);
        context = tomcat.addContext("", base.getAbsolutePath());
    }

    /** Adds a servlet of this class (public, with a public no-argument constructor) for {@code pattern}. */
    public EmbeddedTomcat servlet(String name, Class<?> servlet, String pattern, boolean async) throws Exception {
        tomcat.addServlet(context, name, servlet.getName()).setAsyncSupported(async);
        mapping(name, pattern);
        return this;
    }

    /** The context, for a servlet added as an instance (an app built against one API). */
    public Context context() {
        return context;
    }

    public Tomcat tomcat() {
        return tomcat;
    }

    /** addServletMappingDecoded since 8.5.?; addServletMapping before. */
    public void mapping(String name, String pattern) throws Exception {
        Method m;
        try {
            m = Context.class.getMethod("addServletMappingDecoded", String.class, String.class);
        } catch (NoSuchMethodException e) {
            m = Context.class.getMethod("addServletMapping", String.class, String.class);
        }
        m.invoke(context, pattern, name);
    }

    /** Starts it; its base URL. */
    public String start() throws Exception {
        tomcat.start();
        return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
    }

    /** Whether the connector's executor has a connection queued for a thread. */
    public BooleanSupplier queued() {
        return () -> {
            try {
                Executor executor = tomcat.getConnector().getProtocolHandler().getExecutor();
                Object queue = executor.getClass().getMethod("getQueue").invoke(executor);
                return !((Collection<?>) queue).isEmpty();
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    public void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }
}
