package io.hopscope.agent.instrumentation;

import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.AsyncSpan;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import io.hopscope.agent.runtime.RouteDescriber;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.io.IOException;
import java.io.InputStream;

/**
 * An instrumentation's helper that names its library's classes (a request describer extending
 * nothing of the library's, an adapter extending Reactor's Mono), defined once for each copy of
 * the library that the application's objects come from.
 *
 * <p>Why: the library may be in any class loader (a Spring Boot jar's, an application server's,
 * one the application made itself), not in the agent's (the system class loader), and the agent's
 * runtime, which the helper calls, may not be visible from the library's loader (one whose parent
 * is the platform loader). A {@link HelperLoader} sees both: it defines the helper's classes from
 * the agent jar's bytes, takes the agent's other classes from the agent's loader and everything
 * else from the library's.
 *
 * <p>The helper for an object is the one of the library class it is, extends or implements (one of
 * the key types; every key type of one copy shares the helper kept with the first key type), found
 * once per class and kept in a ClassValue: each helper is held by a class of
 * the copy of the library it serves, so nothing here keeps a class loader alive. A lookup is a
 * ClassValue read per call.
 *
 * <p>A relocated copy of the library (see {@link Relocation}) gets a helper of its own, its bytes
 * rewritten to name that copy's classes: the key types match by the name after the copy's prefix.
 */
public final class LibraryHelper<T> {

    private final String instrumentation;
    private final Class<T> kind;
    private final String helperClass;
    private final String[] keyTypes;
    /**
     * The package the helper is compiled against and the one the library's classes are in, when
     * they differ (the Servlet API's jakarta.servlet and javax.servlet: one describer serves both);
     * null when they are the same.
     */
    private String[] packageRename;

    /** The helper for instances of a key type, by that type (null when it cannot be defined). */
    private final ClassValue<T> byKeyType = new ClassValue<>() {
        @Override
        protected T computeValue(Class<?> keyType) {
            return define(keyType.getClassLoader(), Relocation.prefixOf(keyType.getName(), keyTypes));
        }
    };

    /** The helper for instances of any class, by their class (null: no key type among its supertypes). */
    private final ClassValue<T> byClass = new ClassValue<>() {
        @Override
        protected T computeValue(Class<?> type) {
            Class<?> key = keyTypeOf(type);
            return key == null ? null : byKeyType.get(firstKeyTypeBeside(key));
        }
    };

    private LibraryHelper(String instrumentation, Class<T> kind, String helperClass, String... keyTypes) {
        this.instrumentation = instrumentation;
        this.kind = kind;
        this.helperClass = helperClass;
        this.keyTypes = keyTypes.clone();
    }

    /**
     * A describer that hands each request and response to {@code helperClass} (a RequestDescriber
     * with a public no-argument constructor) as defined for the copy of the library whose key type
     * the object is.
     */
    public static RequestDescriber describer(String instrumentation, String helperClass, String... keyTypes) {
        return new Describer(new LibraryHelper<>(instrumentation, RequestDescriber.class, helperClass, keyTypes));
    }

    /** The same for a server's describer of its exchanges (ServerDescriber), by the exchange and response. */
    public static ServerDescriber serverDescriber(String instrumentation, String helperClass, String... keyTypes) {
        return serverDescriber(instrumentation, false, helperClass, keyTypes);
    }

    /**
     * The same, saying whether the server's exchanges are distinct (see
     * {@link ServerDescriber#exchangesAreDistinct}): a property of the library, known before any
     * copy's helper is defined.
     */
    public static ServerDescriber serverDescriber(String instrumentation, boolean distinctExchanges, String helperClass,
            String... keyTypes) {
        return new ServerExchanges(new LibraryHelper<>(instrumentation, ServerDescriber.class, helperClass, keyTypes),
                distinctExchanges);
    }

    /**
     * A server describer compiled against an API in package {@code compiledAgainst}, serving the
     * same API in package {@code library} too (the Servlet API's {@code jakarta.servlet} and
     * {@code javax.servlet}, whose classes and methods it names are the same but for their package):
     * its classes are defined with one package's names put in the other's place.
     */
    public static ServerDescriber renamedServerDescriber(String instrumentation, String helperClass,
            String compiledAgainst, String library, String... keyTypes) {
        LibraryHelper<ServerDescriber> helper = new LibraryHelper<>(instrumentation, ServerDescriber.class, helperClass,
                keyTypes);
        if (!compiledAgainst.equals(library)) {
            helper.packageRename = new String[] {compiledAgainst, library};
        }
        return new ServerExchanges(helper, false);
    }

    /** The same for a framework's describer of its routes (RouteDescriber), by the framework's request object. */
    public static RouteDescriber routeDescriber(String instrumentation, String helperClass, String... keyTypes) {
        return new Routes(new LibraryHelper<>(instrumentation, RouteDescriber.class, helperClass, keyTypes));
    }

    /** The same for an AsyncAdapter, by the result or callback it is given. */
    public static AsyncAdapter adapter(String instrumentation, String helperClass, String... keyTypes) {
        return new Adapter(new LibraryHelper<>(instrumentation, AsyncAdapter.class, helperClass, keyTypes));
    }

    /** The helper for this object's library, or null when the object is none of the key types. */
    T of(Object object) {
        return object == null ? null : byClass.get(object.getClass());
    }

    /**
     * The first key type of {@code key}'s copy of the library (under the same relocation prefix) as
     * {@code key}'s loader sees it, or {@code key} itself when it sees none: one helper for each copy,
     * whichever of its key types an object is, so that what the helper made from one object (a
     * callback wrapper) is its own class when it comes back as another (the boundary's result).
     */
    private Class<?> firstKeyTypeBeside(Class<?> key) {
        String prefix = Relocation.prefixOf(key.getName(), keyTypes);
        String first = (prefix == null ? "" : prefix) + keyTypes[0];
        if (key.getName().equals(first)) {
            return key;
        }
        try {
            return Class.forName(first, false, key.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return key;
        }
    }

    private Class<?> keyTypeOf(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (Relocation.prefixOf(c.getName(), keyTypes) != null) {
                return c;
            }
            Class<?> key = keyInterfaceOf(c);
            if (key != null) {
                return key;
            }
        }
        return null;
    }

    private Class<?> keyInterfaceOf(Class<?> type) {
        for (Class<?> i : type.getInterfaces()) {
            if (Relocation.prefixOf(i.getName(), keyTypes) != null) {
                return i;
            }
            Class<?> key = keyInterfaceOf(i);
            if (key != null) {
                return key;
            }
        }
        return null;
    }

    private T define(ClassLoader library, String prefix) {
        try {
            HelperLoader loader = new HelperLoader(library, LibraryHelper.class.getClassLoader(), helperClass, prefix,
                    packageRename);
            Class<?> helper = Class.forName(helperClass, true, loader);
            return kind.cast(helper.getConstructor().newInstance());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // A copy of the library the helper does not link against: its objects go undescribed.
            AgentErrors.report(instrumentation, e);
            return null;
        }
    }

    /**
     * Defines one helper class and its nested classes from the agent jar, in a loader that sees the
     * library through the library's loader and the agent's runtime through the agent's. The helper
     * is then in a runtime package of its own: it reaches the agent's classes through their public
     * members only.
     */
    static final class HelperLoader extends ClassLoader {

        static {
            registerAsParallelCapable();
        }

        private final ClassLoader library;
        private final ClassLoader agent;
        private final String helperClass;
        private final String prefix;
        private final String[] packageRename;

        /**
         * {@code prefix}: the library copy's, "" for the original (see Relocation);
         * {@code packageRename}: the package the helper names and the library's, or null.
         */
        HelperLoader(ClassLoader library, ClassLoader agent, String helperClass, String prefix, String[] packageRename) {
            super("hopscope-helper", null);
            this.library = library;
            this.agent = agent;
            this.helperClass = helperClass;
            this.prefix = prefix;
            this.packageRename = packageRename;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    if (name.equals(helperClass) || name.startsWith(helperClass + "$")) {
                        c = defineFromAgent(name);
                    } else if (name.startsWith("io.hopscope.agent.")) {
                        c = agent.loadClass(name);
                    } else if (library != null) {
                        c = library.loadClass(name);
                    } else {
                        c = super.loadClass(name, false);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        private Class<?> defineFromAgent(String name) throws ClassNotFoundException {
            try (InputStream in = agent.getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = in.readAllBytes();
                if (packageRename != null) {
                    bytes = Relocation.renamePackage(bytes, packageRename[0], packageRename[1]);
                }
                bytes = Relocation.remap(bytes, prefix, library);
                return defineClass(name, bytes, 0, bytes.length, LibraryHelper.class.getProtectionDomain());
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    /** Hands each request and response to its library's describer. */
    private static final class Describer implements RequestDescriber {
        private final LibraryHelper<RequestDescriber> helpers;

        Describer(LibraryHelper<RequestDescriber> helpers) {
            this.helpers = helpers;
        }

        @Override
        public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
            RequestDescriber d = helpers.of(request);
            return d == null ? null : d.describe(request, redactor);
        }

        @Override
        public int statusCode(Object response) {
            RequestDescriber d = helpers.of(response);
            return d == null ? -1 : d.statusCode(response);
        }
    }

    /** Hands each exchange to its library's server describer. */
    private static final class ServerExchanges implements ServerDescriber {
        private final LibraryHelper<ServerDescriber> helpers;
        private final boolean distinct;

        ServerExchanges(LibraryHelper<ServerDescriber> helpers, boolean distinct) {
            this.helpers = helpers;
            this.distinct = distinct;
        }

        @Override
        public boolean describes(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d != null && d.describes(exchange);
        }

        @Override
        public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
            ServerDescriber d = helpers.of(exchange);
            return d == null ? null : d.describeServer(exchange, redactor);
        }

        @Override
        public String traceparent(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d == null ? null : d.traceparent(exchange);
        }

        @Override
        public Object endKey(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d == null ? exchange : d.endKey(exchange);
        }

        @Override
        public boolean exchangesAreDistinct() {
            return distinct;
        }

        @Override
        public boolean continuesAfterReturn(Requests requests, RequestState request, Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d != null && d.continuesAfterReturn(requests, request, exchange);
        }

        @Override
        public String route(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d == null ? null : d.route(exchange);
        }

        @Override
        public Throwable failure(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d == null ? null : d.failure(exchange);
        }

        @Override
        public boolean connectionLost(Object exchange) {
            ServerDescriber d = helpers.of(exchange);
            return d != null && d.connectionLost(exchange);
        }

        @Override
        public String outcome(Object response) {
            ServerDescriber d = helpers.of(response);
            return d == null ? "ok" : d.outcome(response);
        }

        @Override
        public Throwable cause(Object response) {
            ServerDescriber d = helpers.of(response);
            return d == null ? null : d.cause(response);
        }

        @Override
        public int statusCode(Object response) {
            ServerDescriber d = helpers.of(response);
            return d == null ? -1 : d.statusCode(response);
        }

        @Override
        public int statusCode(Object response, Throwable thrown) {
            ServerDescriber d = helpers.of(response);
            return d == null ? -1 : d.statusCode(response, thrown);
        }
    }

    /** Hands each handler to the route describer of its request's library. */
    private static final class Routes implements RouteDescriber {
        private final LibraryHelper<RouteDescriber> helpers;

        Routes(LibraryHelper<RouteDescriber> helpers) {
            this.helpers = helpers;
        }

        @Override
        public String route(Object handler, Object target, Object request) {
            RouteDescriber d = helpers.of(request);
            return d == null ? null : d.route(handler, target, request);
        }
    }

    /** Hands each result and callback to its library's adapter. */
    private static final class Adapter implements AsyncAdapter {
        private final LibraryHelper<AsyncAdapter> helpers;

        Adapter(LibraryHelper<AsyncAdapter> helpers) {
            this.helpers = helpers;
        }

        @Override
        public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
            AsyncAdapter a = helpers.of(result);
            return a == null ? null : a.endRequestOnCompletion(requests, request, result);
        }

        @Override
        public Object wrapCallback(Requests requests, RequestState request, Object callback) {
            AsyncAdapter a = helpers.of(callback);
            return a == null ? null : a.wrapCallback(requests, request, callback);
        }

        @Override
        public Object spanOnSubscription(AsyncSpan span, Object result) {
            AsyncAdapter a = helpers.of(result);
            return a == null ? null : a.spanOnSubscription(span, result);
        }
    }
}
