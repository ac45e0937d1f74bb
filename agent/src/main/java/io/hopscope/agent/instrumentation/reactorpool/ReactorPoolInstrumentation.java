package io.hopscope.agent.instrumentation.reactorpool;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * reactor-pool's Borrower (reactor-netty's connection pool, shaded inside reactor-netty-core, and
 * the stand-alone reactor-pool): a pending acquire is served by whichever thread drains the pool
 * (another caller, an event loop), without any executor. The borrower carries the request of the
 * thread that asked for a connection, and its delivery runs in that request, so the write that
 * follows is attributed to the right request and the handover shows as a hop.
 */
public final class ReactorPoolInstrumentation implements HopscopeInstrumentation {

    static final String FIELD = "hopscope$context";

    @Override
    public String name() {
        return "reactor-pool";
    }

    /** AbstractPool$Borrower#deliver exists since reactor-pool 0.1 (reactor-netty 1.0 shades it). */
    @Override
    public String requiredClass() {
        return "reactor.core.publisher.Mono";
    }

    @Override
    public boolean addsFields() {
        return true;
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder.type(namedOneOf("reactor.netty.internal.shaded.reactor.pool.AbstractPool$Borrower",
                        "reactor.pool.AbstractPool$Borrower"), libraryLoaders)
                .transform((b, type, loader, module, domain) -> b
                        .defineField(FIELD, Object.class, Visibility.PUBLIC)
                        .visit(Advice.to(CaptureAdvice.class).on(isConstructor()))
                        .visit(Advice.to(DeliverAdvice.class).on(named("deliver"))));
    }

    /** Borrower's constructor runs on the thread that asks for a connection. */
    static final class CaptureAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object borrower,
                @Advice.FieldValue(value = FIELD, readOnly = false) Object context) {
            context = Bridge.captureContext(borrower);
        }
    }

    /** Borrower#deliver hands the connection over, on whichever thread drains the pool. */
    static final class DeliverAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.FieldValue(FIELD) Object context) {
            return Bridge.contextEnter(context);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }
}
