package io.hopscope.agent.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The W3C trace context current when a request begins: OpenTelemetry's current span, read without
 * linking OpenTelemetry into the agent, so that an application without it is untouched.
 *
 * <p>Where to look is decided once per request class (a {@link ClassValue}, so no table holds a class
 * loader): the OpenTelemetry Java agent's API, relocated into the bootstrap part of its jar, when that
 * agent is in the JVM (its instrumentations' spans, and the application's own API calls, which it
 * bridges to it); otherwise the application's {@code io.opentelemetry.api} as the request's class loader
 * sees it (the SDK used directly); otherwise nothing, and a request costs one {@code ClassValue} read.
 * Decided at a class's first request, after every agent's premain has run, whatever their order.
 */
final class TraceContexts {

    /** The OpenTelemetry Java agent's copy of the API (2.x; 1.x too), on the bootstrap class path. */
    static final String AGENT_SPAN = "io.opentelemetry.javaagent.shaded.io.opentelemetry.api.trace.Span";
    /** The API an application links (opentelemetry-api 1.0 and later). */
    static final String API_SPAN = "io.opentelemetry.api.trace.Span";

    private static final ClassValue<Reader> READERS = new ClassValue<>() {
        @Override
        protected Reader computeValue(Class<?> type) {
            ClassLoader loader = type.getClassLoader();
            if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
                loader = ClassLoader.getSystemClassLoader(); // the JDK's HttpClient: the application's API
            }
            return find(loader);
        }
    };
    /** For a boundary without a request object (requests=): the agent's or the class path's API. */
    private static volatile Reader systemReader;

    private TraceContexts() {
    }

    /**
     * The current span's ids, {@code [traceId, spanId]} (32 and 16 lowercase hex digits), for a request
     * described by {@code request} (null: none); null when no valid span is current or OpenTelemetry
     * is absent. Never throws.
     */
    static String[] current(Object request) {
        Reader reader;
        if (request != null) {
            reader = READERS.get(request.getClass());
        } else {
            reader = systemReader;
            if (reader == null) {
                reader = systemReader = find(ClassLoader.getSystemClassLoader());
            }
        }
        return reader == Reader.NONE ? null : reader.read();
    }

    private static Reader find(ClassLoader loader) {
        Reader agent = Reader.of(AGENT_SPAN, null);
        return agent != Reader.NONE ? agent : Reader.of(API_SPAN, loader);
    }

    /** Method handles on one copy of the API: Span.current().getSpanContext() and its ids. */
    static final class Reader {

        static final Reader NONE = new Reader(null, null, null, null);

        private final MethodHandle currentSpanContext;
        private final MethodHandle isValid;
        private final MethodHandle traceId;
        private final MethodHandle spanId;

        private Reader(MethodHandle currentSpanContext, MethodHandle isValid, MethodHandle traceId, MethodHandle spanId) {
            this.currentSpanContext = currentSpanContext;
            this.isValid = isValid;
            this.traceId = traceId;
            this.spanId = spanId;
        }

        /** The reader of the API whose Span is {@code spanClassName} in {@code loader}, or NONE. */
        static Reader of(String spanClassName, ClassLoader loader) {
            try {
                Class<?> span = Class.forName(spanClassName, false, loader);
                Class<?> context = Class.forName(spanClassName + "Context", false, span.getClassLoader());
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                MethodHandle current = MethodHandles.filterReturnValue(
                        lookup.findStatic(span, "current", MethodType.methodType(span)),
                        lookup.findVirtual(span, "getSpanContext", MethodType.methodType(context)));
                MethodType toObject = MethodType.methodType(Object.class);
                return new Reader(current.asType(toObject),
                        read(lookup, context, "isValid", boolean.class),
                        read(lookup, context, "getTraceId", String.class),
                        read(lookup, context, "getSpanId", String.class));
            } catch (ReflectiveOperationException | LinkageError | SecurityException absent) {
                return NONE; // no OpenTelemetry here, or one too old or too odd to read
            }
        }

        private static MethodHandle read(MethodHandles.Lookup lookup, Class<?> context, String name, Class<?> type)
                throws ReflectiveOperationException {
            return lookup.findVirtual(context, name, MethodType.methodType(type))
                    .asType(MethodType.methodType(type, Object.class));
        }

        String[] read() {
            try {
                Object context = (Object) currentSpanContext.invokeExact();
                if (context == null || !(boolean) isValid.invokeExact(context)) {
                    return null;
                }
                return new String[] {(String) traceId.invokeExact(context), (String) spanId.invokeExact(context)};
            } catch (Throwable t) {
                return null; // OpenTelemetry's own failure is not the request's
            }
        }
    }
}
