package io.hopscope.agent.instrumentation.netty;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.executors.ExecutorsInstrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * Carries the current request into Netty event loops: SingleThreadEventExecutor#execute and
 * #lazyExecute (a channel write from a caller thread arrives on the loop this way).
 */
public final class NettyInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "netty";
    }

    /** SingleThreadEventExecutor#execute(Runnable) is public since Netty 4.0; lazyExecute since 4.1.44. */
    @Override
    public String requiredClass() {
        return "io.netty.util.concurrent.SingleThreadEventExecutor";
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder) {
        return builder.type(named("io.netty.util.concurrent.SingleThreadEventExecutor"))
                .transform((b, type, loader, module, domain) -> b.visit(
                        Advice.to(ExecutorsInstrumentation.RunnableAdvice.class)
                                .on(namedOneOf("execute", "lazyExecute").and(takesArguments(Runnable.class)))));
    }
}
