package io.hopscope.agent.instrumentation.servlet;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.ServerAdvice;
import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The Servlet API, in either of its packages ({@link JakartaServletInstrumentation},
 * {@link JavaxServletInstrumentation}): the outermost {@code Servlet#service(ServletRequest,
 * ServletResponse)} or {@code Filter#doFilter(ServletRequest, ServletResponse, FilterChain)} on a
 * thread begins an inbound request where no container's hook did (any servlet container), named
 * from the {@code HttpServletRequest} (method, request URI as sent, the context path included), with
 * the response's status when it returns (500 for an exception out of it before the response was
 * committed: the container's answer). Inside a container's request (Tomcat's adapter) it is a layer
 * of it: an exception out of it is the request's outcome, though the container answers it.
 *
 * <p>At the exit of whichever is outermost, a request with {@code isAsyncStarted()} goes on: the
 * describer adds an {@code AsyncListener} (a class of its own, defined for each copy of the API)
 * that ends it on {@code onComplete}, {@code onError} or {@code onTimeout} with the response's
 * status, and adds itself again at {@code onStartAsync} (a new async cycle after a dispatch). Until
 * then the request is kept by its servlet request (wrappers taken off): an
 * {@code AsyncContext#dispatch} run on a thread outside it resumes it there. {@code AsyncContext#start}
 * needs nothing of its own: the container runs the task on its executor, a hop of the request.
 * Spring MVC's best-matching pattern ({@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE}, a
 * request attribute) names the request by its route, read at the same exit.
 */
abstract class ServletInstrumentation implements HopscopeInstrumentation {

    /** The describer, compiled against jakarta.servlet and defined for javax.servlet with that package's names. */
    private static final String DESCRIBER = "io.hopscope.agent.instrumentation.servlet.ServletDescriber";

    private final String api;

    /** {@code api}: the API's package. */
    ServletInstrumentation(String api) {
        this.api = api;
    }

    @Override
    public String requiredClass() {
        return api + ".AsyncContext"; // Servlet 3.0, with isAsyncStarted and AsyncListener
    }

    @Override
    public String libraryPackage() {
        return api;
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.subTypesOf(Matchers.notJdk(), api + ".Servlet"))
                .transform((b, type, loader, module, domain) -> b.visit(ServerAdvice.of(api + ".Servlet#service", 0, 1)
                        .on(named("service").and(takesArguments(2))
                                .and(takesArgument(0, named(api + ".ServletRequest")))
                                .and(takesArgument(1, named(api + ".ServletResponse"))))))
                .type(copies.subTypesOf(Matchers.notJdk(), api + ".Filter"))
                .transform((b, type, loader, module, domain) -> b.visit(ServerAdvice.of(api + ".Filter#doFilter", 0, 1)
                        .on(named("doFilter").and(takesArguments(3))
                                .and(takesArgument(0, named(api + ".ServletRequest")))
                                .and(takesArgument(1, named(api + ".ServletResponse"))))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addServerDescriber(LibraryHelper.renamedServerDescriber(name(), DESCRIBER, "jakarta.servlet", api,
                api + ".ServletRequest", api + ".ServletResponse"));
    }
}
