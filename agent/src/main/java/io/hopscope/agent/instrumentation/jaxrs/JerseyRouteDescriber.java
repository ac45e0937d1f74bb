package io.hopscope.agent.instrumentation.jaxrs;

import io.hopscope.agent.runtime.RouteDescriber;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.List;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.model.Invocable;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * The route of a resource method Jersey dispatches to (see JerseyInstrumentation): the application's
 * path, the raw path of the request's base URI (where the container mounted the application: the
 * context path and the servlet's mapping, which is {@code @ApplicationPath} when the container
 * mapped the application by it), then the method's route ({@link JaxRsRoutes}). Reached through a
 * sub-resource locator, it is the first locator's route, each further locator's path and the
 * method's path, from the locators Jersey matched for the request.
 *
 * <p>Every call it makes names only Jersey's own types and the JDK's, the same in Jersey 2
 * ({@code javax.ws.rs}) and 3 and 4 ({@code jakarta.ws.rs}), so one build serves both; defined for
 * each copy of Jersey by a {@link io.hopscope.agent.instrumentation.LibraryHelper} (public for it).
 */
public final class JerseyRouteDescriber implements RouteDescriber {

    @Override
    public String route(Object handler, Object target, Object request) {
        if (!(handler instanceof Method) || target == null || !(request instanceof ContainerRequest)) {
            return null;
        }
        ContainerRequest r = (ContainerRequest) request;
        URI base = r.getBaseUri();
        String basePath = base == null ? null : base.getRawPath();
        JaxRsRoutes.Route route = JaxRsRoutes.of(target.getClass(), (Method) handler);
        List<ResourceMethod> locators = r.getUriInfo().getMatchedResourceLocators();
        if (locators == null || locators.isEmpty()) {
            return route.under(basePath);
        }
        String throughLocators = throughLocators(locators, route);
        return throughLocators == null ? null : JaxRsRoutes.under(basePath, throughLocators);
    }

    /**
     * The route of a sub-resource method through its locators (Jersey lists them last matched
     * first); null when the first locator's class has no path. Each part is kept with its method;
     * the join is made for each request (a few small objects: locators are rare on hot paths).
     */
    private static String throughLocators(List<ResourceMethod> locators, JaxRsRoutes.Route method) {
        StringBuilder route = new StringBuilder();
        for (int i = locators.size() - 1; i >= 0; i--) {
            Invocable locator = locators.get(i).getInvocable();
            JaxRsRoutes.Route part = JaxRsRoutes.of(locator.getHandler().getHandlerClass(), locator.getDefinitionMethod());
            if (i == locators.size() - 1) {
                if (part.route() == null) {
                    return null;
                }
                route.append(part.route().equals("/") ? "" : part.route());
            } else {
                route.append(part.methodPath());
            }
        }
        route.append(method.methodPath());
        return route.length() == 0 ? "/" : route.toString();
    }
}
