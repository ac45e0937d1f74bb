package io.hopscope.agent.instrumentation.springwebflux;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Spring WebFlux's routes: an inbound request (on whichever server WebFlux runs: reactor-netty, or
 * a Servlet container) is renamed by the route template its {@code DispatcherHandler} matched
 * ({@code GET /orders/{id}}), the exchange's best-matching pattern, instead of its path.
 *
 * <p>Where: {@code DispatcherHandler#handleRequestWith(ServerWebExchange, Object handler)}, which
 * the dispatcher calls once a handler mapping has matched, before the handler runs. Every mapping
 * that matches a pattern has put it in the exchange's {@code HandlerMapping.bestMatchingPattern}
 * attribute by then ({@code RequestMappingInfoHandlerMapping#handleMatch} for
 * {@code @RequestMapping}s, {@code AbstractUrlHandlerMapping#lookupHandler}, and
 * {@code RouterFunctionMapping} for functional routes), so one hook serves all three; the mapping
 * runs on the thread that subscribes to the dispatcher (the server's, in the request). A handler
 * found with no pattern keeps the path. Applications that route with
 * {@code RouterFunctions.toHttpHandler} (no dispatcher) keep the path too.
 */
public final class SpringWebFluxInstrumentation implements HopscopeInstrumentation {

    static final String DISPATCHER = "org.springframework.web.reactive.DispatcherHandler";
    /** HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, written out: Spring builds it from the class name. */
    static final String BEST_MATCHING_PATTERN = "org.springframework.web.reactive.HandlerMapping.bestMatchingPattern";

    @Override
    public String name() {
        return "spring-webflux";
    }

    /** DispatcherHandler#handleRequestWith is in Spring Framework since 6.0 (5.x named it invokeHandler). */
    @Override
    public String requiredClass() {
        return DISPATCHER;
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.springframework:spring-webflux", "6.0.0", "7.0.10");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(LibraryLoaders.of(libraryLoaders).named(DISPATCHER))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(RouteAdvice.class)
                        .on(named("handleRequestWith").and(takesArguments(2)))));
    }

    /** DispatcherHandler#handleRequestWith: the exchange's best-matching pattern names the current request. */
    static final class RouteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object exchange) {
            Object pattern = ((ServerWebExchange) exchange).getAttribute(BEST_MATCHING_PATTERN);
            if (pattern instanceof PathPattern) {
                Bridge.serverRoute(((PathPattern) pattern).getPatternString());
            }
        }
    }
}
