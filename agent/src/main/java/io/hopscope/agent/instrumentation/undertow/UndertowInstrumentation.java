package io.hopscope.agent.instrumentation.undertow;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.ServerAdvice;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Undertow (core): an inbound request begins at {@code Connectors#executeRootHandler(HttpHandler,
 * HttpServerExchange)} on the XNIO I/O thread that parsed its head, and ends when its exchange
 * completes ({@code HttpServerExchange#invokeExchangeCompleteListeners}, entered once the request
 * and the response are both done), on whichever thread completes it.
 *
 * <p>Why these. executeRootHandler is where every protocol's connector (HTTP/1.1, HTTP/2, AJP)
 * hands a parsed exchange to the application's root handler, once per exchange, with the method,
 * path and headers read; the root {@code HttpHandler#handleRequest} (the OpenTelemetry agent's
 * hook) is the same call one frame in, but every handler of a chain implements it, so matching it
 * means matching the whole hierarchy. executeRootHandler catches whatever the handler throws (it
 * answers 500 and keeps the exception on the exchange, where the describer reads it), so its own
 * return says nothing of the request's end: a handler may complete the exchange later on another
 * thread (a dispatch, an async receive or send). The completion listeners are what Undertow calls
 * when the exchange is complete, on every path: a response written to the end, a handler's
 * failure, a client gone mid-response (the connection closed); hooking the method that calls them,
 * rather than adding a listener to every exchange, costs nothing per exchange, and its entry comes
 * before Undertow reads the connection's next request from inside it.
 *
 * <p>The server's queue: a handler on the I/O thread that must block calls
 * {@code HttpServerExchange#dispatch} (directly or through {@code BlockingHandler}); every overload
 * ends in {@code dispatch(Executor, Runnable)}, whose task, the application's, Undertow hands to the
 * executor (by default the XNIO worker's, threads {@code XNIO-1 task-N}) once the root handler has
 * returned. That hand-over is the request's hop out of the server's queue, run on the worker by
 * executeRootHandler again (the request's entry on a thread it hopped to). A handler that answers
 * on the I/O thread (non-blocking) has no queue: its request is one thread's.
 */
public final class UndertowInstrumentation implements HopscopeInstrumentation {

    static final String BOUNDARY = "io.undertow.server.HttpHandler#handleRequest";
    static final String CONNECTORS = "io.undertow.server.Connectors";
    static final String EXCHANGE = "io.undertow.server.HttpServerExchange";

    @Override
    public String name() {
        return "undertow";
    }

    /** Connectors#executeRootHandler is Undertow's since 1.0. */
    @Override
    public String requiredClass() {
        return CONNECTORS;
    }

    /**
     * 2.2 is the last javax line (Spring Boot 2's, WildFly 26's), still widely deployed; every class
     * and method the rules name is the same in 2.2.0, 2.3.0 and 2.4.4.
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.undertow:undertow-core", "2.2.0.Final", "2.4.4.Final");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(CONNECTORS))
                .transform((b, type, loader, module, domain) -> b.visit(ServerAdvice.untilEnd(BOUNDARY, 1)
                        .on(named("executeRootHandler").and(isStatic()).and(takesArguments(2)))))
                .type(copies.named(EXCHANGE))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(DispatchAdvice.class).on(named("dispatch").and(takesArguments(2))
                                .and(takesArgument(1, Runnable.class))))
                        .visit(Advice.to(CompleteAdvice.class)
                                .on(named("invokeExchangeCompleteListeners").and(takesArguments(0)))));
    }

    /**
     * The XNIO worker's threads, plain Threads running jboss-threads' worker loop (wrapped in XNIO's
     * own Runnable from 3.8.x), are started by the first dispatches, inside whichever request made the
     * pool grow: housekeeping, not that request's work for the rest of their lives.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addHousekeepingTask("org.jboss.threads.EnhancedQueueExecutor$ThreadBody");
        rules.addHousekeepingTask("org.xnio.XnioWorker$WorkerThreadFactory");
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addServerDescriber(LibraryHelper.serverDescriber(name(),
                "io.hopscope.agent.instrumentation.undertow.UndertowDescriber", EXCHANGE));
    }

    /**
     * dispatch(Executor, Runnable), where every dispatch overload ends: the task, handed over now or
     * once the root handler returns, is the request's hop out of the server's queue. A null executor
     * is the worker's, which Undertow looks up only when it hands the task over.
     */
    static final class DispatchAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object executor,
                @Advice.Argument(value = 1, readOnly = false, typing = Assigner.Typing.DYNAMIC) Runnable task) {
            task = Bridge.wrapServerTask(task, executor);
        }
    }

    /** invokeExchangeCompleteListeners(): the exchange is complete (its request and response are done). */
    static final class CompleteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object exchange) {
            Bridge.serverEnd(exchange, null);
        }
    }
}
