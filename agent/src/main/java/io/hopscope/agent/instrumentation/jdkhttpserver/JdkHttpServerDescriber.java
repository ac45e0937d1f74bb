package io.hopscope.agent.instrumentation.jdkhttpserver;

import com.sun.net.httpserver.HttpExchange;
import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * Names the JDK server's exchanges and reads their status. Its end hook reports the server's
 * internal exchange ({@code sun.net.httpserver.ExchangeImpl}), not the {@code HttpExchange} the
 * handlers get, so the agent opens that package to itself to read one from the other; where that
 * fails, the server is not instrumented (no describer: its requests would never end).
 */
final class JdkHttpServerDescriber implements ServerDescriber {

    private static final String PACKAGE = "sun.net.httpserver";

    private final Class<?> internal;
    private final Class<?> plain;
    private final Class<?> secure;
    private final MethodHandle plainImpl;
    private final MethodHandle secureImpl;
    private final MethodHandle internalStatus;

    private JdkHttpServerDescriber(Class<?> internal, Class<?> plain, Class<?> secure, MethodHandle plainImpl,
            MethodHandle secureImpl, MethodHandle internalStatus) {
        this.internal = internal;
        this.plain = plain;
        this.secure = secure;
        this.plainImpl = plainImpl;
        this.secureImpl = secureImpl;
        this.internalStatus = internalStatus;
    }

    /** Null when the module is absent or its package cannot be opened. */
    static JdkHttpServerDescriber open(Instrumentation instrumentation) {
        Module server = ModuleLayer.boot().findModule("jdk.httpserver").orElse(null);
        if (server == null) {
            return null;
        }
        try {
            instrumentation.redefineModule(server, Collections.emptySet(), Collections.emptyMap(),
                    Map.of(PACKAGE, Set.of(JdkHttpServerDescriber.class.getModule())), Collections.emptySet(),
                    Collections.emptyMap());
            ClassLoader loader = server.getClassLoader();
            Class<?> internal = Class.forName(PACKAGE + ".ExchangeImpl", false, loader);
            Class<?> plain = Class.forName(PACKAGE + ".HttpExchangeImpl", false, loader);
            Class<?> secure = Class.forName(PACKAGE + ".HttpsExchangeImpl", false, loader);
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Method status = internal.getDeclaredMethod("getResponseCode");
            status.setAccessible(true);
            return new JdkHttpServerDescriber(internal, plain, secure, getter(lookup, plain, "impl"),
                    getter(lookup, secure, "impl"),
                    lookup.unreflect(status).asType(MethodType.methodType(int.class, Object.class)));
        } catch (Throwable t) {
            AgentErrors.report("jdk-httpserver", t);
            return null;
        }
    }

    private static MethodHandle getter(MethodHandles.Lookup lookup, Class<?> type, String name) throws Exception {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return lookup.unreflectGetter(field).asType(MethodType.methodType(Object.class, Object.class));
    }

    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof HttpExchange || internal.isInstance(exchange);
    }

    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        if (!(exchange instanceof HttpExchange)) {
            return null;
        }
        HttpExchange http = (HttpExchange) exchange;
        URI uri = http.getRequestURI();
        return HttpRequestInfo.server(http.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), redactor);
    }

    @Override
    public String traceparent(Object exchange) {
        return exchange instanceof HttpExchange ? ((HttpExchange) exchange).getRequestHeaders().getFirst("traceparent")
                : null;
    }

    @Override
    public Object endKey(Object exchange) {
        try {
            if (plain.isInstance(exchange)) {
                return (Object) plainImpl.invokeExact(exchange);
            }
            if (secure.isInstance(exchange)) {
                return (Object) secureImpl.invokeExact(exchange);
            }
        } catch (Throwable t) {
            AgentErrors.report("jdk-httpserver", t);
        }
        return exchange; // a filter's own HttpExchange: its request ends when its entry returns, if it throws
    }

    @Override
    public int statusCode(Object exchange) {
        if (exchange instanceof HttpExchange) {
            return ((HttpExchange) exchange).getResponseCode();
        }
        if (internal.isInstance(exchange)) {
            try {
                return (int) internalStatus.invokeExact(exchange);
            } catch (Throwable t) {
                return -1;
            }
        }
        return -1;
    }
}
