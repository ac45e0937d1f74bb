package io.hopscope.agent.instrumentation.jdkhttp;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.BoundaryAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.Requests;
import io.hopscope.agent.runtime.UrlRedactor;
import java.lang.instrument.Instrumentation;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The JDK's HttpClient: jdk.internal.net.http.HttpClientImpl#send and #sendAsync are request
 * boundaries; sendAsync's CompletableFuture ends the request when it completes.
 *
 * <p>The client moves an exchange between threads without a task: send runs it inline on the
 * caller until it registers a socket event with the client's selector thread (registerEvent, or
 * eventUpdated to resume one), and the selector handles the event when the socket is ready
 * (its AsyncEvent#handle), handing the rest to the client's executor. So the request is
 * remembered with the event's socket channel when the event is registered or the exchange writes
 * on the channel (SocketTube#onNext: a pooled connection's read event stays registered from one
 * exchange to the next), and is current on the selector thread while it handles an event of that
 * channel: a send shows a hop to the selector, its handoff to the executor (a ThreadPoolExecutor
 * task, which the executors instrumentation follows) and the wake back to the caller.
 */
public final class JdkHttpInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "jdk-http";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    /** java.net.http exists since JDK 11; a runtime image may leave the module out. */
    @Override
    public boolean availableInJdk() {
        return ModuleLayer.boot().findModule("java.net.http").isPresent();
    }

    @Override
    public List<String> jdkClasses() {
        return List.of("jdk.internal.net.http.");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder.type(named("jdk.internal.net.http.HttpClientImpl"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(BoundaryAdvice.of("java.net.http.HttpClient#send", 0, BoundaryAdvice.Result.OBSERVED)
                                .on(named("send").and(isPublic()).and(takesArguments(2))))
                        // The returned future is kept (only observed), never replaced.
                        .visit(BoundaryAdvice.of("java.net.http.HttpClient#sendAsync", 0, BoundaryAdvice.Result.OBSERVED)
                                .on(named("sendAsync").and(isPublic())
                                .and(takesArguments(2).or(takesArguments(3)))))
                        // Both take a jdk.internal.net.http.AsyncEvent (JDK 11 to 25 at least).
                        .visit(Advice.to(RegisterEventAdvice.class)
                                .on(namedOneOf("registerEvent", "eventUpdated").and(takesArguments(1)))))
                // An exchange's write on a pooled connection: the connection's read event is
                // already registered (by an earlier exchange), so the write attaches this one.
                .type(named("jdk.internal.net.http.SocketTube"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(TubeWriteAdvice.class).on(named("onNext").and(takesArgument(0, List.class)))))
                // The selector runs an event's handle() through SelectorManager#handleEvent or, for
                // some (JDK 17's trigger events), directly: so every event's own handle().
                .type(nameStartsWith("jdk.internal.net.http.")
                        .and(hasSuperType(named("jdk.internal.net.http.AsyncEvent"))))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(HandleEventAdvice.class)
                                .on(named("handle").and(takesArguments(0)).and(not(isAbstract())))));
    }

    @Override
    public void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        runtime.addDescriber(new Describer());
        runtime.addAdapter(new FutureAdapter());
        EventChannels channels = EventChannels.open(instrumentation);
        if (channels != null) {
            runtime.addContextKey(channels);
        }
    }

    /**
     * HttpClientImpl#registerEvent/eventUpdated: the event will be handled on the selector thread.
     * A thread that re-arms a connection's read event may still be in the exchange before (the
     * executor thread that read its response), so it does not replace a request in flight.
     */
    static final class RegisterEventAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object event) {
            Bridge.attachContext(event, false);
        }
    }

    /** SocketTube#onNext(List): an exchange writes on the tube's channel; the next response is its. */
    static final class TubeWriteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("channel") Object channel) {
            Bridge.attachContext(channel, true);
        }
    }

    /** AsyncEvent#handle, on the selector thread: the event's request is current. */
    static final class HandleEventAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object event) {
            return Bridge.attachedContextEnter(event);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /** Names JDK client requests and reads their responses' status. */
    static final class Describer implements RequestDescriber {
        @Override
        public HttpRequestInfo describe(Object request, UrlRedactor redactor) {
            if (!(request instanceof HttpRequest)) {
                return null;
            }
            HttpRequest http = (HttpRequest) request;
            return HttpRequestInfo.of(http.method(), http.uri().toString(), redactor);
        }

        @Override
        public int statusCode(Object response) {
            return response instanceof HttpResponse ? ((HttpResponse<?>) response).statusCode() : -1;
        }
    }

    /** Ends a request when its CompletableFuture completes; the future itself is returned as is. */
    static final class FutureAdapter implements AsyncAdapter {
        @Override
        public Object endRequestOnCompletion(Requests requests, RequestState request, Object result) {
            if (!(result instanceof CompletableFuture)) {
                return null;
            }
            CompletableFuture<?> future = (CompletableFuture<?>) result;
            future.whenComplete((value, error) -> {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                String outcome = error == null ? "ok" : cause instanceof CancellationException ? "cancelled" : "error";
                requests.asyncTerminated(request, outcome, cause, value);
            });
            return future;
        }
    }
}
