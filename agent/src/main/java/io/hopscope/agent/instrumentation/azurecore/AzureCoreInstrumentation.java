package io.hopscope.agent.instrumentation.azurecore;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.nameEndsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.BoundaryAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.SpanAdvice;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
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

    /**
     * 1.30.0 added HttpPipeline#sendSync, HttpPipelinePolicy#processSync and HttpClient#sendSync
     * (with HttpPipelineNextSyncPolicy); the newest is the last release served.
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("com.azure:azure-core", "1.30.0", "1.61.0");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named(PIPELINE))
                .transform((b, type, loader, module, domain) -> b
                        .visit(BoundaryAdvice.of("com.azure.core.http.HttpPipeline#send", 0, BoundaryAdvice.Result.REPLACED)
                                .on(named("send").and(takesArguments(1))
                                .and(takesArgument(0, nameEndsWith("com.azure.core.http.HttpPipelineCallContext")))))
                        .visit(BoundaryAdvice.of("com.azure.core.http.HttpPipeline#sendSync", 0, BoundaryAdvice.Result.OBSERVED)
                                .on(named("sendSync"))))
                .type(copies.subTypesOf(Matchers.notJdk(), POLICY))
                .transform((b, type, loader, module, domain) -> b
                        .visit(SpanAdvice.async("policy").on(named("process").and(takesArguments(2))
                                .and(not(isAbstract()))))
                        .visit(SpanAdvice.sync("policy").on(named("processSync").and(takesArguments(2))
                                .and(not(isAbstract())))))
                // send(HttpRequest) only calls send(request, Context.NONE) in every client: the two-argument
                // one is the span, from the interface's default where a client does not override it.
                .type(named(HTTP_CLIENT).or(Matchers.implementationsOf(HTTP_CLIENT)), libraryLoaders)
                .transform((b, type, loader, module, domain) -> b
                        .visit(SpanAdvice.async("http").on(named("send").and(takesArguments(2))
                                .and(takesArgument(1, named(CONTEXT))).and(not(isAbstract()))))
                        // The interface's default sendSync blocks on send(): the client owns the sync
                        // span then, so the send inside opens none of its own (spanOwner).
                        .visit(SpanAdvice.sync("http").on(named("sendSync").and(takesArguments(2))
                                .and(not(isAbstract())))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(), "io.hopscope.agent.instrumentation.azurecore.AzureCoreDescriber",
                "com.azure.core.http.HttpPipelineCallContext", "com.azure.core.http.HttpRequest",
                "com.azure.core.http.HttpResponse"));
    }
}
