package io.hopscope.agent.instrumentation.grpcserver;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * gRPC-java's server: each call is an inbound request, named by its full method name
 * ({@code orders.Orders/Get}, no HTTP method: every gRPC call is an HTTP/2 POST, so a prefix would
 * say nothing), with the caller's {@code traceparent} metadata.
 *
 * <p>Where it begins. The transport (grpc-netty's event loop, usually grpc-netty-shaded's relocated
 * Netty) parses a call's headers and hands them to {@code ServerImpl$ServerTransportListenerImpl#streamCreated(ServerStream,
 * String, Metadata)}, the one entry every call of every transport goes through, with the method and
 * the headers as arguments; the request begins there, on the transport thread. Nothing of the
 * application runs there: streamCreated queues the call's first tasks (method lookup and
 * {@code startCall}, where the interceptors run) in the call's {@code SerializingExecutor}, which
 * hands itself to the server's executor ({@code ServerBuilder#executor}). That hand-over is the
 * request's first hop, a serverQueue handoff whose delay is the time the call waited for an
 * executor thread. OpenTelemetry's server interceptor starts its span later, in {@code startCall} on
 * the executor, after that wait.
 *
 * <p>What follows on the transport. The transport keeps delivering the call's events (its messages,
 * its half-close, readiness) to the call's {@code ServerImpl$JumpToApplicationThreadServerStreamListener},
 * which queues each as a task in the same serializing executor: the request is kept with the call's
 * stream (Bridge#attachContext at streamCreated) and entered on the transport thread for each
 * delivery, whatever other call's work that thread is doing (Bridge#attachedContextSwitch), so that
 * every hand-over of the call is the request's. The serializing executor runs the call's tasks in
 * turn: a task queued while it is scheduled or running is no new hop; when it had gone idle, its
 * next hand-over to the server's executor is another serverQueue hop (a unary call's half-close
 * that arrives after its first tasks ran; a client stream's messages).
 *
 * <p>Where it ends: when the transport closes the call's stream
 * ({@code AbstractServerStream$TransportState#closeListener(Status)}), after the server's trailers
 * are written or when the stream is reset (the client cancelled, or went away), on the transport
 * thread. A server-streaming call's handler returns long before that: its request ends with its
 * last message, not with the method. The status is the one the server closed the call with
 * ({@code ServerCall#close}, which the transport keeps as the stream's closed status: a handler's
 * {@code onError}, an exception it threw as UNKNOWN), else the transport's (CANCELLED for a client
 * that cancelled): {@code statusCode} is the gRPC code's number (0 OK, 1 CANCELLED, 2 UNKNOWN, 13
 * INTERNAL, ...), {@code outcome} {@code ok} for OK, {@code cancelled} for CANCELLED and
 * {@code error} for any other code, with the status' cause as the error when it has one. A gRPC
 * call has no successful response with an error code as HTTP has: a non-OK status is the call's
 * failure. The listener's own closed callback ({@code onComplete}, {@code onCancel}), queued after
 * the end, is no part of the request.
 *
 * <p>Every class and member named here is in grpc-core (grpc-api's, in later releases, for Status and
 * Metadata), unchanged from 1.9.0, where the stream's closed status appeared, to 1.85; the tested
 * range is {@link #versions()}.
 */
public final class GrpcServerInstrumentation implements HopscopeInstrumentation {

    static final String NAME = "grpc-server";
    static final String BOUNDARY = "io.grpc.internal.ServerTransportListener#streamCreated";
    static final String TRANSPORT_LISTENER = "io.grpc.internal.ServerImpl$ServerTransportListenerImpl";
    static final String CALL_LISTENER = "io.grpc.internal.ServerImpl$JumpToApplicationThreadServerStreamListener";
    static final String STREAM_STATE = "io.grpc.internal.AbstractServerStream$TransportState";
    static final String SERIALIZING_EXECUTOR = "io.grpc.internal.SerializingExecutor";

    @Override
    public String name() {
        return NAME;
    }

    /**
     * A class of grpc-core since 1.9.0, the release whose server streams keep the status they were
     * closed with (AbstractServerStream$TransportState#closedStatus, which the end reads): an older
     * grpc-core, whose calls would begin and never end here, switches the instrumentation off.
     */
    @Override
    public String requiredClass() {
        return "io.grpc.internal.GrpcAttributes";
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.grpc:grpc-core", "1.9.1", "1.85.1");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(TRANSPORT_LISTENER))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(StreamCreatedAdvice.class).on(named("streamCreated").and(takesArguments(3)))))
                .type(copies.named(CALL_LISTENER))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(DeliveryAdvice.class).on(namedOneOf("messagesAvailable", "halfClosed",
                                "onReady", "triggerEvent").and(takesArguments(0).or(takesArguments(1))))))
                .type(copies.named(STREAM_STATE))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ClosedAdvice.class).on(named("closeListener").and(takesArguments(1)))))
                .type(copies.named(SERIALIZING_EXECUTOR))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(QueueAdvice.class).on(named("execute").and(takesArguments(Runnable.class)))));
    }

    /**
     * The tasks a call's serializing executor runs for the server, queued on the transport thread:
     * handed to the server's executor, they are the request's server queue. Not the closed
     * notification's task ({@code $1Closed}), which comes after the request ended.
     */
    @Override
    public void addRules(LibraryRules rules) {
        String calls = TRANSPORT_LISTENER + "$1";
        rules.addServerQueueTask(calls + "MethodLookup");
        rules.addServerQueueTask(calls + "HandleServerCall");
        rules.addServerQueueTask(calls + "StreamCreated"); // before 1.39: one task did both
        for (String delivery : new String[] {"MessagesAvailable", "HalfClosed", "OnReady", "TriggerEvent"}) {
            rules.addServerQueueTask(CALL_LISTENER + "$1" + delivery);
        }
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addServerDescriber(LibraryHelper.serverDescriber(NAME, GrpcServerDescriber.class.getName(),
                "io.grpc.internal.ServerStream", "io.grpc.Metadata", "io.grpc.Status"));
    }

    /**
     * streamCreated(stream, method, headers), on the transport thread: the call's request begins,
     * and is kept with its stream for the deliveries that follow.
     */
    static final class StreamCreatedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object stream, @Advice.Argument(1) String method,
                @Advice.Argument(2) Object headers) {
            Object token = Bridge.serverEnterCall(BOUNDARY, stream, method, headers);
            Bridge.attachContext(stream, true);
            return token;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Argument(0) Object stream, @Advice.Thrown Throwable thrown) {
            Bridge.serverExit(token, stream, thrown);
        }
    }

    /** The transport delivers an event of the call (a message, its half-close, readiness): in the call's request. */
    static final class DeliveryAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.FieldValue("stream") Object stream) {
            return Bridge.attachedContextSwitch(stream);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /**
     * closeListener(status): the stream is closed, its trailers written or the stream reset. The
     * status the server closed the call with, if it did, else the transport's.
     */
    static final class ClosedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object state, @Advice.Argument(0) Object status,
                @Advice.FieldValue("closedStatus") Object closedStatus) {
            Bridge.serverEndWith(state, closedStatus != null ? closedStatus : status);
        }
    }

    /** SerializingExecutor#execute(task): a server task queued there is handed to the server's executor through it. */
    static final class QueueAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object task) {
            return Bridge.serverQueueEnter(task);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.serverQueueExit(token);
        }
    }
}
