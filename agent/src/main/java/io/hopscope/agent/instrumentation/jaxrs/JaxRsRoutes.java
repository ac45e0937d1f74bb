package io.hopscope.agent.instrumentation.jaxrs;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The routes of JAX-RS resource methods, read from their {@code @Path} annotations by reflection,
 * for {@code javax.ws.rs} and {@code jakarta.ws.rs} alike (an annotation is known by its type's
 * name, so no API is linked): the resource class's path joined to the method's ({@code /orders}
 * and {@code /{id}}: {@code /orders/{id}}), each with a leading slash and none trailing, and a
 * template's regular expression left out ({@code {id: [0-9]+}} is {@code {id}}), so that two
 * methods that differ only in it share a name, as their requests share their paths' shape.
 *
 * <p>Each method's route is computed once, at its first request, and kept in a ClassValue of its
 * resource class: the entries are the agent's classes and the class's own methods, so nothing here
 * keeps a class loader alive. A request then pays a ClassValue read, a map lookup and, for an
 * application not at the root, a string comparison with the application's path it was last joined
 * to. Used by each JAX-RS implementation's RouteDescriber (Jersey's: {@link JerseyRouteDescriber}).
 */
public final class JaxRsRoutes {

    private static final String JAVAX_PATH = "javax.ws.rs.Path";
    private static final String JAKARTA_PATH = "jakarta.ws.rs.Path";

    private static final ClassValue<Resource> RESOURCES = new ClassValue<Resource>() {
        @Override
        protected Resource computeValue(Class<?> type) {
            return new Resource(classPath(type));
        }
    };

    private JaxRsRoutes() {
    }

    /**
     * The route of {@code method} called on an instance of {@code resourceClass}: its class's path
     * and its own, or null when neither the class nor one of its super types has a {@code @Path}
     * (a sub-resource, reached through a locator: see {@link Route#methodPath}).
     */
    public static Route of(Class<?> resourceClass, Method method) {
        Resource resource = RESOURCES.get(resourceClass);
        Route route = resource.methods.get(method);
        if (route == null) {
            String own = normalize(path(method));
            route = new Route(resource.path == null ? null : join(resource.path, own), own);
            Route raced = resource.methods.putIfAbsent(method, route);
            if (raced != null) {
                route = raced;
            }
        }
        return route;
    }

    /** One resource class's path and its methods' routes. */
    private static final class Resource {
        /** The class's normalized {@code @Path}, or null. */
        final String path;
        final ConcurrentHashMap<Method, Route> methods = new ConcurrentHashMap<>();

        Resource(String path) {
            this.path = path;
        }
    }

    /** One resource method's route on one resource class. */
    public static final class Route {
        private final String route;
        private final String methodPath;
        /** The last application path this route was put under, and the result: {base, route}. */
        private volatile String[] lastUnder;

        Route(String route, String methodPath) {
            this.route = route;
            this.methodPath = methodPath;
        }

        /** The class's path and the method's, or null for a class without a path. */
        public String route() {
            return route;
        }

        /**
         * The method's own path ("" for none): what a sub-resource method adds to its locators'
         * route. (A locator's result is matched by its methods' paths alone, whatever its class says.)
         */
        public String methodPath() {
            return methodPath;
        }

        /**
         * {@link #route()} under the application's path ({@code basePath}: the raw path of the
         * application's base URI, {@code /} or {@code /api/}); null when the route is.
         */
        public String under(String basePath) {
            if (route == null) {
                return null;
            }
            if (basePath == null) {
                basePath = "";
            }
            String[] last = lastUnder;
            if (last != null && last[0].equals(basePath)) {
                return last[1];
            }
            String joined = JaxRsRoutes.under(basePath, route);
            lastUnder = new String[] {basePath, joined};
            return joined;
        }
    }

    /** {@code route} under the application's path (a base URI's raw path: {@code /}, {@code /api/}). */
    public static String under(String basePath, String route) {
        String base = normalize(basePath);
        return base.isEmpty() ? route : base + route;
    }

    /** Two normalized paths joined; "/" for two empty ones. */
    public static String join(String first, String second) {
        String joined = first + second;
        return joined.isEmpty() ? "/" : joined;
    }

    /**
     * A {@code @Path} value as a route's part: a leading slash, none trailing (the empty string for
     * "" and "/"), and each template's regular expression left out.
     */
    public static String normalize(String path) {
        if (path == null) {
            return "";
        }
        String p = withoutRegexes(path.trim());
        int end = p.length();
        while (end > 0 && p.charAt(end - 1) == '/') {
            end--;
        }
        int start = 0;
        while (start < end && p.charAt(start) == '/') {
            start++;
        }
        return start == end ? "" : "/" + p.substring(start, end);
    }

    /** {@code {id: [0-9]+}} as {@code {id}}; braces inside the expression ({@code [0-9]{3}}) are counted. */
    static String withoutRegexes(String path) {
        if (path.indexOf('{') < 0) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c != '{') {
                out.append(c);
                i++;
                continue;
            }
            int depth = 1;
            int j = i + 1;
            int colon = -1;
            while (j < path.length() && depth > 0) {
                char d = path.charAt(j);
                if (d == '{') {
                    depth++;
                } else if (d == '}') {
                    depth--;
                } else if (d == ':' && depth == 1 && colon < 0) {
                    colon = j;
                }
                j++;
            }
            int nameEnd = colon >= 0 ? colon : (depth == 0 ? j - 1 : j);
            out.append('{').append(path.substring(i + 1, nameEnd).trim()).append('}');
            i = j;
        }
        return out.toString();
    }

    /**
     * The {@code @Path} of the class or, for a subclass a container made (a CDI proxy), of its
     * nearest super type that has one; null when none has.
     */
    static String classPath(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            String path = path(c.getDeclaredAnnotations());
            if (path != null) {
                return normalize(path);
            }
        }
        Deque<Class<?>> interfaces = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Class<?> i : c.getInterfaces()) {
                interfaces.add(i);
            }
        }
        while (!interfaces.isEmpty()) {
            Class<?> i = interfaces.poll();
            if (!seen.add(i)) {
                continue;
            }
            String path = path(i.getDeclaredAnnotations());
            if (path != null) {
                return normalize(path);
            }
            for (Class<?> superInterface : i.getInterfaces()) {
                interfaces.add(superInterface);
            }
        }
        return null;
    }

    /** The method's {@code @Path} value, or null. */
    static String path(Method method) {
        return path(method.getDeclaredAnnotations());
    }

    private static String path(Annotation[] annotations) {
        for (Annotation a : annotations) {
            String name = a.annotationType().getName();
            if (name.equals(JAKARTA_PATH) || name.equals(JAVAX_PATH)) {
                try {
                    Object value = a.annotationType().getMethod("value").invoke(a);
                    return value instanceof String ? (String) value : null;
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
