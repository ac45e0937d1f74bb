package io.hopscope.agent.instrumentation.reactorpool;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import java.util.List;
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

    /**
     * A relocated copy is reactor-pool's own package moved (reactor-netty's, or an SDK's copy of
     * either): it must have AbstractPool there; Reactor itself may have stayed where it was.
     */
    @Override
    public String requiredClassOfCopy() {
        return "reactor.pool.AbstractPool";
    }

    @Override
    public String libraryPackage() {
        return "reactor.pool";
    }

    /** reactor-netty 1.0+ ships reactor-pool relocated there (reactor-netty-core). */
    @Override
    public List<String> knownRelocations() {
        return List.of("reactor.netty.internal.shaded.");
    }

    /**
     * The stand-alone reactor-pool; 0.1.0 is the oldest release served, and has the Borrower's
     * constructor and deliver the rules name.
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.projectreactor.addons:reactor-pool", "0.1.0.RELEASE", "1.2.8");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder.type(LibraryLoaders.of(libraryLoaders).named("reactor.pool.AbstractPool$Borrower"))
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
