package io.hopscope.agent.instrumentation;

import io.hopscope.agent.bootstrap.Bridge;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * A server's entry into an inbound request (every server's, bound per method with {@link #of}): the
 * boundary's name as a constant, and the exchange (the library's request object) taken from the
 * method's argument at a given index, or from {@code this}. One advice for every server, inlined
 * with its constants, as {@link WaitAdvice} is for waits.
 */
public final class ServerAdvice {

    private ServerAdvice() {
    }

    /** The boundary's name, as the Request event carries it. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Boundary {
    }

    /** The exchange: the argument or {@code this} {@link #of} names. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Exchange {
    }

    /** The response, where it is an object apart from the exchange: the argument {@link #of(String, int, int)} names. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Response {
    }

    /** Where the exchange is: {@code this} ({@link #THIS}) or an argument's index. */
    public static final int THIS = -1;

    /**
     * The entry of a server whose request ends when this method returns, unless the exchange goes on
     * (see ServerHooks#serverEnter).
     */
    public static Advice of(String boundary, int exchange) {
        return bind(boundary, exchange).to(Enter.class);
    }

    /**
     * The same for a server whose response is an argument of its own ({@code Servlet#service(request,
     * response)}): the status is read from it.
     */
    public static Advice of(String boundary, int exchange, int response) {
        return bind(boundary, exchange)
                .bind(Response.class, new Advice.OffsetMapping.ForArgument.Unresolved(TypeDescription.Generic.OBJECT,
                        true, Assigner.Typing.DYNAMIC, response))
                .to(EnterResponding.class);
    }

    /** The entry of a server whose request ends only at its end hook (see ServerHooks#serverEnterUntilEnd). */
    public static Advice untilEnd(String boundary, int exchange) {
        return bind(boundary, exchange).to(EnterUntilEnd.class);
    }

    private static Advice.WithCustomMapping bind(String boundary, int exchange) {
        Advice.OffsetMapping at = exchange == THIS
                ? new Advice.OffsetMapping.ForThisReference(TypeDescription.Generic.OBJECT, true,
                        Assigner.Typing.DYNAMIC, false)
                : new Advice.OffsetMapping.ForArgument.Unresolved(TypeDescription.Generic.OBJECT, true,
                        Assigner.Typing.DYNAMIC, exchange);
        return Advice.withCustomMapping().bind(Boundary.class, boundary).bind(Exchange.class, at);
    }

    /** serverEnter / serverExit. */
    static final class Enter {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Boundary String boundary, @Exchange Object exchange) {
            return Bridge.serverEnter(boundary, exchange);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Exchange Object exchange, @Advice.Thrown Throwable thrown) {
            Bridge.serverExit(token, exchange, thrown);
        }
    }

    /** serverEnterUntilEnd / serverExit. */
    static final class EnterUntilEnd {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Boundary String boundary, @Exchange Object exchange) {
            return Bridge.serverEnterUntilEnd(boundary, exchange);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Exchange Object exchange, @Advice.Thrown Throwable thrown) {
            Bridge.serverExit(token, exchange, thrown);
        }
    }

    /** serverEnter / serverExitResponding. */
    static final class EnterResponding {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Boundary String boundary, @Exchange Object exchange) {
            return Bridge.serverEnter(boundary, exchange);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Exchange Object exchange, @Response Object response,
                @Advice.Thrown Throwable thrown) {
            Bridge.serverExitResponding(token, exchange, response, thrown);
        }
    }
}
