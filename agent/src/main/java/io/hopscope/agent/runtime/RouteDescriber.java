package io.hopscope.agent.runtime;

/**
 * Knows one framework's handlers (a JAX-RS implementation's resource methods): the route template
 * an inbound request is named by once the framework has matched its handler (ServerHooks#serverHandler).
 * Each such framework has one, defined for each copy of the library by a LibraryHelper; it computes a
 * handler's route once and keeps it, so that a request pays a lookup.
 */
public interface RouteDescriber {

    /**
     * The route of {@code handler} called on {@code target} for {@code request} ({@code /api/orders/{id}}:
     * the path the framework's application is at, then the template it matched), or null when the
     * request is not this framework's or its route cannot be known (then the request keeps its path).
     */
    String route(Object handler, Object target, Object request);
}
