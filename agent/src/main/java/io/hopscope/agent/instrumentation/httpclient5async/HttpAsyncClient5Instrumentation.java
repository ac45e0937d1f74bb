package io.hopscope.agent.instrumentation.httpclient5async;

import static net.bytebuddy.matcher.ElementMatchers.declaresField;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Apache HttpClient 5, async API: CloseableHttpAsyncClient#doExecute, where every execute overload
 * ends up (SimpleHttpRequest's, a request producer's, with or without a callback), is a request
 * boundary that ends when the exchange's FutureCallback is completed, on the I/O reactor thread
 * that read the response (see {@link HttpAsyncClient5Callbacks}).
 *
 * <p>The client hands an exchange to its I/O reactor without a task: it queues a command on the
 * connection's session (IOSessionImpl#enqueue, on the caller's thread for a pooled connection) and
 * the reactor's dispatcher thread runs it when the session's channel is ready
 * (InternalDataChannel#onIOEvent). So the request is remembered with the session when a command is
 * queued in it, and is current on the dispatcher while it handles that session's events, until the
 * request ends: a handoff to the dispatcher for each event, and the response's reading and the
 * callback on it are the request's. A new connection is made by the reactor itself (its connect
 * request queue), outside the request: the first exchange on it is queued by the dispatcher, not
 * the caller, and shows no hop.
 *
 * <p>Every rule also matches a copy relocated under another package (see LibraryLoaders): the
 * reactor's classes under the prefix of the client's copy, so httpcore5 must have been relocated
 * with the client (as a shaded HttpClient 5 is: it cannot run on another core).
 */
public final class HttpAsyncClient5Instrumentation implements HopscopeInstrumentation {

    static final String CLIENT = "org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient";
    static final String SESSION = "org.apache.hc.core5.reactor.IOSessionImpl";
    static final String DATA_CHANNEL = "org.apache.hc.core5.reactor.InternalDataChannel";

    @Override
    public String name() {
        return "httpclient5-async";
    }

    /**
     * CloseableHttpAsyncClient#doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer,
     * HandlerFactory, HttpContext, FutureCallback): HttpClient 5.0 and later.
     */
    @Override
    public String requiredClass() {
        return CLIENT;
    }

    /** HttpClient 5's own package: its core (org.apache.hc.core5) is relocated beside it. */
    @Override
    public String libraryPackage() {
        return "org.apache.hc.client5";
    }

    /**
     * HttpClient 5.0 (httpcore5 5.0) has the six-argument doExecute, IOSessionImpl#enqueue(Command,
     * Priority) and InternalDataChannel's ioSession field and onIOEvent(int).
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.apache.httpcomponents.client5:httpclient5", "5.0", "5.6.5");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.subTypesOf(Matchers.notJdk(), CLIENT))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ExecuteAdvice.class).on(named("doExecute").and(takesArguments(6))
                                .and(not(isAbstract())))))
                // httpcore5's reactor (5.0 to 5.4 at least): the session's command queue and the
                // data channel (over that session, its ioSession field) whose events the dispatcher handles.
                .type(copies.named(SESSION))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(EnqueueAdvice.class).on(named("enqueue").and(takesArguments(2)))))
                .type(copies.named(DATA_CHANNEL)).and(declaresField(named("ioSession")))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(IoEventAdvice.class).on(named("onIOEvent").and(takesArguments(1)))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(),
                "io.hopscope.agent.instrumentation.httpclient5.HttpClient5Describer",
                "org.apache.hc.core5.http.nio.support.BasicRequestProducer", "org.apache.hc.core5.http.HttpResponse",
                "org.apache.hc.core5.http.Message"));
        // The callback's own type (the wrapper is one too), and the client, which stands for a missing callback.
        runtime.addAdapter(LibraryHelper.adapter(name(),
                "io.hopscope.agent.instrumentation.httpclient5async.HttpAsyncClient5Callbacks",
                "org.apache.hc.core5.concurrent.FutureCallback", CLIENT));
    }

    /** CloseableHttpAsyncClient#doExecute(...): the request ends when its callback is completed. */
    static final class ExecuteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object client, @Advice.Argument(1) Object producer,
                @Advice.Argument(value = 5, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
            Object token = Bridge.boundaryEnter("org.apache.hc.client5.http.async.HttpAsyncClient#execute", producer);
            // No callback (the caller waits on the Future): the client stands for one, so that the
            // library's adapter is found and gives one that ends the request.
            Object wrapped = Bridge.wrapCallback(token, callback != null ? callback : client);
            if (wrapped != client) {
                callback = wrapped;
            }
            return token;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Argument(5) Object callback,
                @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, callback, thrown);
        }
    }

    /** IOSessionImpl#enqueue(Command, Priority): the session's next events are this request's. */
    static final class EnqueueAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object session) {
            Bridge.attachContext(session, true);
        }
    }

    /** InternalDataChannel#onIOEvent(int), on the dispatcher thread: its session's request is current. */
    static final class IoEventAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.FieldValue("ioSession") Object session) {
            return Bridge.attachedContextEnter(session);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }
}
