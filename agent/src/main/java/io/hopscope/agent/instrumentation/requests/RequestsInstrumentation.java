package io.hopscope.agent.instrumentation.requests;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isOverriddenFrom;
import static net.bytebuddy.matcher.ElementMatchers.isPrimitive;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;

import io.hopscope.agent.instrumentation.BoundaryAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.SpanAdvice;
import io.hopscope.settings.AgentOptions;
import java.util.List;
import java.util.stream.Collectors;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The application's own request boundaries ({@code requests=Class#method}: every overload becomes a
 * boundary) and pipeline-stage interfaces ({@code policies=Interface}: every implementation's
 * methods of that interface are timed as policy spans).
 */
public final class RequestsInstrumentation implements HopscopeInstrumentation {

    private List<String> requestMethods = List.of();
    private List<String> policyInterfaces = List.of();

    @Override
    public void configure(AgentOptions options) {
        requestMethods = options.requests();
        policyInterfaces = options.policies();
    }

    @Override
    public String name() {
        return "requests";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    /** A boundary may be a JDK class's method (the policies' implementations are never the JDK's). */
    @Override
    public List<String> jdkClasses() {
        return requestMethods.stream().map(target -> target.substring(0, target.indexOf('#')))
                .collect(Collectors.toList());
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        AgentBuilder b = builder;
        for (String target : requestMethods) {
            int hash = target.indexOf('#');
            String type = target.substring(0, hash);
            ElementMatcher.Junction<MethodDescription> method = isMethod().and(named(target.substring(hash + 1)))
                    .and(not(isAbstract()));
            // A result that is a reference may be replaced by one that ends the request when it completes.
            b = b.type(named(type)).transform((tb, td, loader, module, domain) -> tb
                    .visit(BoundaryAdvice.of(target, BoundaryAdvice.NOTHING, BoundaryAdvice.Result.REPLACED)
                            .on(method.and(not(returns(isPrimitive())))))
                    .visit(BoundaryAdvice.of(target, BoundaryAdvice.NOTHING, BoundaryAdvice.Result.IGNORED)
                            .on(method.and(returns(isPrimitive())))));
        }
        for (String iface : policyInterfaces) {
            b = b.type(Matchers.implementationsOf(iface))
                    .transform((tb, td, loader, module, domain) -> tb.visit(SpanAdvice.sync("policy")
                            .on(isMethod().and(not(isAbstract())).and(isOverriddenFrom(named(iface))))));
        }
        return b;
    }
}
