package io.hopscope.agent.instrumentation.jdkhttp;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.runtime.AsyncAdapter;
import io.hopscope.agent.runtime.AsyncSpan;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.HttpRequestInfo;
import io.hopscope.agent.runtime.RequestDescriber;
import io.hopscope.agent.runtime.RequestState;
import io.hopscope.agent.runtime.UrlRedactor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The JDK's HttpClient: jdk.internal.net.http.HttpClientImpl#send and #sendAsync are request
 * boundaries; sendAsync's CompletableFuture ends the request when it completes. send waits on
 * sendAsync internally, so a send shows a nested sendAsync span, the client's handoffs and a wake.
 */
public final class JdkHttpInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "jdk-http";
    }

    /** java.net.http exists since JDK 11; a runtime image may leave the module out. */
    @Override
    public String requiredClass() {
        return "java.net.http.HttpClient";
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder) {
        return builder.type(named("jdk.internal.net.http.HttpClientImpl"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(SendAdvice.class).on(named("send").and(isPublic()).and(takesArguments(2))))
                        .visit(Advice.to(SendAsyncAdvice.class).on(named("sendAsync").and(isPublic())
                                .and(takesArguments(2).or(takesArguments(3))))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(new Describer());
        runtime.addAdapter(new FutureAdapter());
    }

    /** HttpClient#send. */
    static final class SendAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object request) {
            return Bridge.boundaryEnter("java.net.http.HttpClient#send", request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, response, thrown);
        }
    }

    /** HttpClient#sendAsync: the returned future is kept (only observed), never replaced. */
    static final class SendAsyncAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object request) {
            return Bridge.boundaryEnter("java.net.http.HttpClient#sendAsync", request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object result, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, result, thrown);
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
        public Object endRequestOnCompletion(HopscopeRuntime runtime, RequestState request, Object result) {
            if (!(result instanceof CompletableFuture)) {
                return null;
            }
            CompletableFuture<?> future = (CompletableFuture<?>) result;
            future.whenComplete((value, error) -> {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                String outcome = error == null ? "ok" : cause instanceof CancellationException ? "cancelled" : "error";
                runtime.asyncTerminated(request, outcome, cause, value);
            });
            return future;
        }

        @Override
        public Object spanOnSubscription(HopscopeRuntime runtime, AsyncSpan span, Object result) {
            return null;
        }
    }
}
