package io.hopscope.agent.instrumentation.grpcnetty;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * grpc-netty's write queue (grpc-netty-shaded's relocated copy too): the transport hands a call's
 * writes (its stream's creation with its headers, its messages, its half-close, a cancel, a
 * server's response headers) to the channel's event loop as commands in a queue of its own, which
 * one flush task drains. The flush is scheduled only when none is pending, so a call's commands are
 * often written by a flush another call, or the loop itself, scheduled: on a client making blocking
 * calls one after another, the flush the loop scheduled for the previous call's flow control (its
 * window update) wrote the next call's stream, in the previous call's request, after it ended; the
 * response's read then belonged to no request (Netty's rule gives a channel's reads to the request
 * that last wrote on it), and 44 of 200 calls of gRPC's blocking stub had no way back.
 *
 * <p>Each command carries the request of the thread that queued it ({@code WriteQueue#enqueue}:
 * Bridge#attachTask, the fork/join tasks' hook), and its run on the loop enters that request
 * whatever the loop is in (Bridge#attachedTaskEnter): a handoff from the queueing thread with its
 * queue delay, via the write queue, unless the flush itself came from that thread in that request
 * (no second hop). The channel's next read is then the request's, and so is the response's way back.
 * Outside a request the enqueue costs one ThreadLocal lookup and the run one volatile read (no
 * task pending).
 *
 * <p>{@code WriteQueue}, its {@code QueuedCommand}s' {@code run(Channel)} and {@code enqueue} are
 * in every release from 1.9 (where {@code enqueue} also takes a promise) to 1.85. Commands queued
 * without a request (a keep-alive ping, a connection's close), and a {@code Runnable} queued as one
 * (its command is made inside the queue), carry none.
 */
public final class GrpcNettyInstrumentation implements HopscopeInstrumentation {

    static final String NAME = "grpc-netty";
    static final String WRITE_QUEUE = "io.grpc.netty.WriteQueue";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String requiredClass() {
        return WRITE_QUEUE;
    }

    @Override
    public String libraryPackage() {
        return "io.grpc.netty";
    }

    /** grpc-netty-shaded relocates grpc-netty with Netty: the copy most applications have. */
    @Override
    public List<String> knownRelocations() {
        return List.of("io.grpc.netty.shaded.");
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.grpc:grpc-netty-shaded", "1.9.1", "1.85.1");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(WRITE_QUEUE))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(EnqueueAdvice.class)
                        .on(named("enqueue").and(takesArguments(2).or(takesArguments(3)))
                                .and(not(takesArgument(0, Runnable.class))))))
                // Every command but SendGrpcFrameCommand (a ByteBufHolder) extends AbstractQueuedCommand,
                // whose run is final.
                .type(copies.named(WRITE_QUEUE + "$AbstractQueuedCommand", "io.grpc.netty.SendGrpcFrameCommand"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(RunAdvice.class)
                        .on(named("run").and(takesArguments(1)))));
    }

    /** WriteQueue#enqueue(command, [promise,] flush), on the thread that queues it: the command carries its request. */
    static final class EnqueueAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object queue, @Advice.Argument(0) Object command) {
            Bridge.attachTask(command, queue);
        }
    }

    /** A command's run(channel), on the event loop's flush: in the request that queued it. */
    static final class RunAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object command) {
            return Bridge.attachedTaskEnter(command);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }
}
