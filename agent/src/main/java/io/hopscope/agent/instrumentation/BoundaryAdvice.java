package io.hopscope.agent.instrumentation;

import io.hopscope.agent.bootstrap.Bridge;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.implementation.bytecode.constant.NullConstant;

/**
 * A client's request boundary (every library's, bound per method with {@link #of}): its name as a
 * constant, the object that describes the request ({@code this}, an argument, or nothing), and what
 * the boundary's exit does with the method's result. One advice for every boundary, inlined with its
 * constants, as {@link WaitAdvice} is for waits and {@link ServerAdvice} for servers' entries.
 */
public final class BoundaryAdvice {

    private BoundaryAdvice() {
    }

    /** The boundary's name, as the Request event carries it. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Boundary {
    }

    /** The object a describer names the request from. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Described {
    }

    /** The request is described by {@code this}. */
    public static final int THIS = -1;
    /** Nothing describes the request (a requests= boundary: it is named by its method). */
    public static final int NOTHING = -2;

    /** What the exit does with the method's result. */
    public enum Result {
        /**
         * Hands it to the boundary's exit, which reads a response's status or ends the request when
         * an asynchronous result completes, without replacing it (a future the caller holds).
         */
        OBSERVED(ObservedExit.class),
        /** The same, and returns what the exit gives: a result wrapped so that it ends the request (a Mono). */
        REPLACED(ReplacedExit.class),
        /** Not looked at (a primitive, which need not be boxed). */
        IGNORED(IgnoredExit.class);

        final Class<?> exit;

        Result(Class<?> exit) {
            this.exit = exit;
        }
    }

    /** The advice of boundary {@code boundary}, described by {@link #THIS}, {@link #NOTHING} or the argument at that index. */
    public static Advice of(String boundary, int described, Result result) {
        Advice.WithCustomMapping mapping = Advice.withCustomMapping().bind(Boundary.class, boundary);
        if (described == NOTHING) {
            mapping = mapping.bind(Described.class, NullConstant.INSTANCE, TypeDescription.Generic.OBJECT);
        } else {
            mapping = mapping.bind(Described.class, described == THIS
                    ? new Advice.OffsetMapping.ForThisReference(TypeDescription.Generic.OBJECT, true,
                            Assigner.Typing.DYNAMIC, false)
                    : new Advice.OffsetMapping.ForArgument.Unresolved(TypeDescription.Generic.OBJECT, true,
                            Assigner.Typing.DYNAMIC, described));
        }
        return mapping.to(Enter.class, result.exit);
    }

    static final class Enter {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Boundary String boundary, @Described Object described) {
            return Bridge.boundaryEnter(boundary, described);
        }
    }

    static final class ObservedExit {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, result, thrown);
        }
    }

    static final class ReplacedExit {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.boundaryExit(token, result, thrown);
        }
    }

    static final class IgnoredExit {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, null, thrown);
        }
    }
}
