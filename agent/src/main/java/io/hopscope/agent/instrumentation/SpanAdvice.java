package io.hopscope.agent.instrumentation;

import io.hopscope.agent.bootstrap.Bridge;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * A span of the advised object's call (a pipeline policy's, an interceptor's, an HTTP client's send),
 * of a kind bound per method with {@link #sync} or {@link #async}: named after the object's class.
 * A synchronous span is the call; an asynchronous one runs from the subscription to the result the
 * call returns until its terminal signal, so its exit may replace the result with one that times it.
 */
public final class SpanAdvice {

    private SpanAdvice() {
    }

    /** The span's kind, as the Span event names it ({@code policy}, {@code interceptor}, {@code http}). */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Kind {
    }

    /** A synchronous span of this kind. */
    public static Advice sync(String kind) {
        return Advice.withCustomMapping().bind(Kind.class, kind).to(Sync.class);
    }

    /** An asynchronous span of this kind, on a method that returns its result. */
    public static Advice async(String kind) {
        return Advice.withCustomMapping().bind(Kind.class, kind).to(Async.class);
    }

    static final class Sync {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Kind String kind, @Advice.This Object self) {
            return Bridge.spanEnter(kind, self, false);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.spanExit(token, null, thrown);
        }
    }

    static final class Async {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Kind String kind, @Advice.This Object self) {
            return Bridge.spanEnter(kind, self, true);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.spanExit(token, result, thrown);
        }
    }
}
