package io.hopscope.agent.instrumentation.asynchttpclient;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.BoundaryAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * AsyncHttpClient (org.asynchttpclient, over Netty): DefaultAsyncHttpClient#executeRequest(Request,
 * AsyncHandler), where every execute ends up (BoundRequestBuilder#execute, the other overloads), is
 * a request boundary that ends when its ListenableFuture completes, on the Netty event loop that
 * read the response. Its way there is Netty's: the caller's write (or a new connection's
 * registration) is a task on the event loop, which the netty instrumentation follows as a handoff.
 * A caller that waits in get() does so after the boundary has returned, outside the request.
 * Every rule also matches a copy relocated under another package (see LibraryLoaders), the
 * argument's type under the same prefix; such a copy usually carries a relocated Netty, which the
 * netty instrumentation follows as its own copy.
 */
public final class AsyncHttpClientInstrumentation implements HopscopeInstrumentation {

    static final String CLIENT = "org.asynchttpclient.DefaultAsyncHttpClient";
    static final String REQUEST = "org.asynchttpclient.Request";

    @Override
    public String name() {
        return "async-http-client";
    }

    /** DefaultAsyncHttpClient#executeRequest(Request, AsyncHandler) returns a ListenableFuture with toCompletableFuture since 2.0. */
    @Override
    public String requiredClass() {
        return CLIENT;
    }

    /**
     * The rules apply from 2.0.0 (the first in org.asynchttpclient, with executeRequest(Request,
     * AsyncHandler) and ListenableFuture#toCompletableFuture), but 2.0.0 to 2.0.24 do not run on JDK
     * 17, agent or not: their Netty (4.0.36 to 4.0.42) fails to initialize there. 2.0.25 (Netty
     * 4.0.43) is the oldest that does. 3.0.14's parent pom is not on Maven Central: 3.0.13.
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.asynchttpclient:async-http-client", "2.0.25", "3.0.13");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders.CopyRule client = LibraryLoaders.of(libraryLoaders).named(CLIENT);
        return builder
                .type(client)
                .transform((b, type, loader, module, domain) -> b
                        .visit(BoundaryAdvice.of("org.asynchttpclient.AsyncHttpClient#executeRequest", 0,
                                BoundaryAdvice.Result.OBSERVED).on(named("executeRequest").and(takesArguments(2))
                                .and(takesArgument(0, named(client.prefixOf(type) + REQUEST))))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(),
                "io.hopscope.agent.instrumentation.asynchttpclient.AsyncHttpClientDescriber",
                "org.asynchttpclient.Request", "org.asynchttpclient.Response"));
        runtime.addAdapter(LibraryHelper.adapter(name(),
                "io.hopscope.agent.instrumentation.asynchttpclient.AsyncHttpClientFutures",
                "org.asynchttpclient.ListenableFuture"));
    }
}
