package io.hopscope.agent.instrumentation;

import io.hopscope.agent.bootstrap.Bridge;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;

/**
 * A blocking wait on the advised object (a future's get or join), of a kind bound per method with
 * {@link #of}: one advice for every library's waits, inlined with its kind as a constant.
 */
public final class WaitAdvice {

    private WaitAdvice() {
    }

    /** The wait's kind, as the Wait event names it ({@code CompletableFuture.get}). */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Kind {
    }

    /** The advice for waits of this kind. */
    public static Advice of(String kind) {
        return Advice.withCustomMapping().bind(Kind.class, kind).to(WaitAdvice.class);
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Kind String kind, @Advice.This Object waitedOn) {
        return Bridge.waitEnter(kind, waitedOn);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
        Bridge.waitExit(token, thrown);
    }
}
