package io.hopscope.agent.instrumentation.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * JAX-RS routes on Jersey, {@code javax.ws.rs} (Jersey 2) and {@code jakarta.ws.rs} (Jersey 3 and 4)
 * alike: the inbound request a server began (a servlet container's, the JDK's HTTP server's) is
 * named by the route of the resource method Jersey matched for it, {@code GET /api/orders/{id}}
 * ({@link JerseyRouteDescriber}, {@link JaxRsRoutes}). A request no resource method matched (a 404,
 * a 405) keeps its path.
 *
 * <p>The hook is Jersey's own routing point, not the application's resource classes: every resource
 * method Jersey calls goes through {@code AbstractJavaResourceMethodDispatcher#dispatch(Object
 * resource, ContainerRequest request)} once matching is done, whose dispatcher holds the method it
 * calls (its {@code method} field: the one that carries the JAX-RS annotations, an interface's
 * where the resource inherits them). Matching resource classes by their annotations (the
 * OpenTelemetry agent's way, which serves every implementation) would put a rule over every class
 * loaded where JAX-RS is: each class's annotations, and its super types' for inherited ones, read at
 * load, in the first seconds that docs/performance.md counts. A named rule costs a name comparison
 * per class, and the dispatcher hands over the matched method, its resource and Jersey's request
 * (the base URI, the locators matched), which the annotations alone do not give. The price: one
 * rule per implementation; RESTEasy and Apache CXF have none yet.
 */
public final class JerseyInstrumentation implements HopscopeInstrumentation {

    static final String DISPATCHER = "org.glassfish.jersey.server.model.internal.AbstractJavaResourceMethodDispatcher";

    @Override
    public String name() {
        return "jaxrs-jersey";
    }

    /** The dispatcher every Java resource method is called through, since Jersey 2.0. */
    @Override
    public String requiredClass() {
        return DISPATCHER;
    }

    @Override
    public String libraryPackage() {
        return "org.glassfish.jersey.server";
    }

    /** Tested on Jersey 2.26 (javax.ws.rs, Tomcat 9) and 4.0.2 (jakarta.ws.rs, Tomcat 11). */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.glassfish.jersey.core:jersey-server", "2.26", "4.0.2");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(DISPATCHER))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(Dispatch.class)
                        .on(named("dispatch").and(takesArguments(2)))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addRouteDescriber(LibraryHelper.routeDescriber(name(),
                "io.hopscope.agent.instrumentation.jaxrs.JerseyRouteDescriber", "org.glassfish.jersey.server.ContainerRequest"));
    }

    /** The dispatch of a matched resource method: its route names the current inbound request. */
    static final class Dispatch {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("method") Object method, @Advice.Argument(0) Object resource,
                @Advice.Argument(1) Object request) {
            Bridge.serverHandler(method, resource, request);
        }
    }
}
