package io.hopscope.agent.instrumentation.grpcserver;

import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.internal.AbstractServerStream;
import io.hopscope.agent.runtime.AgentErrors;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.ServerDescriber;
import io.hopscope.agent.runtime.UrlRedactor;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

/**
 * gRPC's server calls, for each copy of grpc-core (a LibraryHelper): a call is named by its entry
 * (the method), its traceparent read from its headers, its end keyed on its stream's transport
 * state (where the transport reports the stream closed), its status and outcome read from the
 * Status it ended with (see GrpcServerInstrumentation).
 */
public final class GrpcServerDescriber implements ServerDescriber {

    private static final Metadata.Key<String> TRACEPARENT = Metadata.Key.of("traceparent",
            Metadata.ASCII_STRING_MARSHALLER);
    /** AbstractServerStream#transportState(), protected: a stream's end is reported by its transport state. */
    private static final MethodHandle TRANSPORT_STATE = transportState();

    public GrpcServerDescriber() {
    }

    private static MethodHandle transportState() {
        try {
            Method m = AbstractServerStream.class.getDeclaredMethod("transportState");
            m.setAccessible(true);
            return MethodHandles.lookup().unreflect(m).asType(MethodType.methodType(Object.class, Object.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            AgentErrors.report(GrpcServerInstrumentation.NAME, e);
            return null;
        }
    }

    /** Only the streams whose close is hooked (every transport's but the in-process one): another would never end. */
    @Override
    public boolean describes(Object exchange) {
        return exchange instanceof AbstractServerStream && TRANSPORT_STATE != null;
    }

    /** Named by its entry, with its method. */
    @Override
    public HttpRequestInfo describeServer(Object exchange, UrlRedactor redactor) {
        return null;
    }

    @Override
    public String traceparent(Object headers) {
        return headers instanceof Metadata ? ((Metadata) headers).get(TRACEPARENT) : null;
    }

    @Override
    public Object endKey(Object exchange) {
        if (exchange instanceof AbstractServerStream && TRANSPORT_STATE != null) {
            try {
                return (Object) TRANSPORT_STATE.invokeExact(exchange);
            } catch (Throwable t) {
                AgentErrors.report(GrpcServerInstrumentation.NAME, t);
            }
        }
        return exchange;
    }

    /** The gRPC status code's number (0 OK, 1 CANCELLED, 2 UNKNOWN, ...). */
    @Override
    public int statusCode(Object response) {
        return response instanceof Status ? ((Status) response).getCode().value() : -1;
    }

    @Override
    public String outcome(Object response) {
        if (!(response instanceof Status)) {
            return "ok";
        }
        Status.Code code = ((Status) response).getCode();
        return code == Status.Code.OK ? "ok" : code == Status.Code.CANCELLED ? "cancelled" : "error";
    }

    @Override
    public Throwable cause(Object response) {
        return response instanceof Status ? ((Status) response).getCause() : null;
    }
}
