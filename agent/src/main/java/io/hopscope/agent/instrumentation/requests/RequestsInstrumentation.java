package io.hopscope.agent.instrumentation.requests;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isOverriddenFrom;
import static net.bytebuddy.matcher.ElementMatchers.isPrimitive;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.returns;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.settings.AgentOptions;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
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
        return requestMethods.stream().map(target -> target.substring(0, target.indexOf('#'))).toList();
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        AgentBuilder b = builder;
        for (String target : requestMethods) {
            int hash = target.indexOf('#');
            String type = target.substring(0, hash);
            ElementMatcher.Junction<MethodDescription> method = isMethod().and(named(target.substring(hash + 1)))
                    .and(not(isAbstract()));
            b = b.type(named(type)).transform((tb, td, loader, module, domain) -> tb
                    .visit(Advice.to(BoundaryAdvice.class).on(method.and(not(returns(isPrimitive())))))
                    .visit(Advice.to(PrimitiveBoundaryAdvice.class).on(method.and(returns(isPrimitive())))));
        }
        for (String iface : policyInterfaces) {
            b = b.type(Matchers.implementationsOf(iface))
                    .transform((tb, td, loader, module, domain) -> tb.visit(Advice.to(PolicyAdvice.class)
                            .on(isMethod().and(not(isAbstract())).and(isOverriddenFrom(named(iface))))));
        }
        return b;
    }

    /** A boundary returning a reference: the result may be replaced by one that ends the request. */
    static final class BoundaryAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Origin("#t\\##m") String boundary) {
            return Bridge.boundaryEnter(boundary, null);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.boundaryExit(token, result, thrown);
        }
    }

    /** A boundary returning a primitive or nothing. */
    static final class PrimitiveBoundaryAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Origin("#t\\##m") String boundary) {
            return Bridge.boundaryEnter(boundary, null);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, null, thrown);
        }
    }

    /** A method of a {@code policies=} interface: a synchronous policy span. */
    static final class PolicyAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object self) {
            return Bridge.spanEnter("policy", self, false);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.spanExit(token, null, thrown);
        }
    }
}
