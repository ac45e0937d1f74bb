package io.hopscope.agent.instrumentation.azurecore;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.nameEndsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.runtime.HopscopeRuntime;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * azure-core: HttpPipeline#send(HttpPipelineCallContext) (where every send overload ends up; its
 * Mono ends the request) and #sendSync are request boundaries; every HttpPipelinePolicy
 * implementation's process (async span, subscription to terminal signal) and processSync (sync
 * span) is a policy span. The HttpClient's send(HttpRequest, Context) and sendSync, what the
 * innermost policy waits on (OkHttp, Netty, the JDK's client, or the interface's defaults), are
 * {@code http} spans: without them an asynchronous policy's self time would hold the whole network
 * and queue wait, its own work being none of it.
 */
public final class AzureCoreInstrumentation implements HopscopeInstrumentation {

    static final String PIPELINE = "com.azure.core.http.HttpPipeline";
    static final String POLICY = "com.azure.core.http.policy.HttpPipelinePolicy";
    static final String HTTP_CLIENT = "com.azure.core.http.HttpClient";
    static final String CONTEXT = "com.azure.core.util.Context";

    @Override
    public String name() {
        return "azure-core";
    }

    /** HttpPipeline#sendSync and HttpPipelinePolicy#processSync appeared in azure-core 1.30. */
    @Override
    public String requiredClass() {
        return "com.azure.core.http.HttpPipelineNextSyncPolicy";
    }

    @Override
    public String libraryPackage() {
        return "com.azure.core";
    }

    /** Azure Storage's operation selectors: they say what a request does, never who may do it. */
    @Override
    public List<String> keptQueryParameters() {
        return List.of("comp", "restype", "api-version", "timeout");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(PIPELINE))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(SendAdvice.class).on(named("send").and(takesArguments(1))
                                .and(takesArgument(0, nameEndsWith("com.azure.core.http.HttpPipelineCallContext")))))
                        .visit(Advice.to(SendSyncAdvice.class).on(named("sendSync"))))
                .type(copies.subTypesOf(Matchers.notJdk(), POLICY))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ProcessAdvice.class).on(named("process").and(takesArguments(2))
                                .and(not(isAbstract()))))
                        .visit(Advice.to(ProcessSyncAdvice.class).on(named("processSync").and(takesArguments(2))
                                .and(not(isAbstract())))))
                // send(HttpRequest) only calls send(request, Context.NONE) in every client: the two-argument
                // one is the span, from the interface's default where a client does not override it.
                .type(named(HTTP_CLIENT).or(Matchers.implementationsOf(HTTP_CLIENT)), libraryLoaders)
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ClientSendAdvice.class).on(named("send").and(takesArguments(2))
                                .and(takesArgument(1, named(CONTEXT))).and(not(isAbstract()))))
                        .visit(Advice.to(ClientSendSyncAdvice.class).on(named("sendSync").and(takesArguments(2))
                                .and(not(isAbstract())))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(), "io.hopscope.agent.instrumentation.azurecore.AzureCoreDescriber",
                "com.azure.core.http.HttpPipelineCallContext", "com.azure.core.http.HttpRequest",
                "com.azure.core.http.HttpResponse"));
    }

    /** HttpPipeline#send(HttpPipelineCallContext): returns a Mono that ends the request. */
    static final class SendAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object context) {
            return Bridge.boundaryEnter("com.azure.core.http.HttpPipeline#send", context);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.boundaryExit(token, result, thrown);
        }
    }

    /** HttpPipeline#sendSync(HttpRequest, Context). */
    static final class SendSyncAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(0) Object request) {
            return Bridge.boundaryEnter("com.azure.core.http.HttpPipeline#sendSync", request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Return Object result, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, result, thrown);
        }
    }

    /** HttpPipelinePolicy#process: the span runs from subscription to terminal signal. */
    static final class ProcessAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object policy) {
            return Bridge.spanEnter("policy", policy, true);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.spanExit(token, result, thrown);
        }
    }

    /** HttpClient#send(HttpRequest, Context): the span runs from subscription to the response (or error). */
    static final class ClientSendAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object client) {
            return Bridge.spanEnter("http", client, true);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result,
                @Advice.Thrown Throwable thrown) {
            result = Bridge.spanExit(token, result, thrown);
        }
    }

    /**
     * HttpClient#sendSync(HttpRequest, Context). The interface's default blocks on send(): the client
     * owns the sync span then, so the send inside opens none of its own.
     */
    static final class ClientSendSyncAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object client) {
            return Bridge.spanEnter("http", client, false);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.spanExit(token, null, thrown);
        }
    }

    /** HttpPipelinePolicy#processSync. */
    static final class ProcessSyncAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object policy) {
            return Bridge.spanEnter("policy", policy, false);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.spanExit(token, null, thrown);
        }
    }
}
