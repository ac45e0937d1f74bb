package io.hopscope.agent.instrumentation.httpclient5;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Apache HttpClient 5, classic (blocking) API: CloseableHttpClient#doExecute, where every execute
 * overload ends up (those with a response handler too), is a request boundary. The exchange runs
 * on the caller's thread end to end (the connection pool hands over no task), so a request has no
 * hop; it ends when the response's head is read: the body, read by the response handler or the
 * caller after, is not in it (as with OkHttp's execute). Every rule also matches a copy of
 * HttpClient 5 relocated under another package (see LibraryLoaders).
 */
public final class HttpClient5Instrumentation implements HopscopeInstrumentation {

    static final String CLIENT = "org.apache.hc.client5.http.impl.classic.CloseableHttpClient";

    @Override
    public String name() {
        return "httpclient5";
    }

    /** CloseableHttpClient#doExecute(HttpHost, ClassicHttpRequest, HttpContext): HttpClient 5.0 and later. */
    @Override
    public String requiredClass() {
        return CLIENT;
    }

    /** HttpClient 5's own package: its core (org.apache.hc.core5) is usually relocated beside it. */
    @Override
    public String libraryPackage() {
        return "org.apache.hc.client5";
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(LibraryLoaders.of(libraryLoaders).subTypesOf(Matchers.notJdk(), CLIENT))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(ExecuteAdvice.class).on(named("doExecute").and(takesArguments(3))
                                .and(not(isAbstract())))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(),
                "io.hopscope.agent.instrumentation.httpclient5.HttpClient5Describer",
                "org.apache.hc.core5.http.HttpRequest", "org.apache.hc.core5.http.HttpResponse"));
    }

    /** CloseableHttpClient#doExecute(HttpHost, ClassicHttpRequest, HttpContext). */
    static final class ExecuteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(1) Object request) {
            return Bridge.boundaryEnter("org.apache.hc.client5.http.classic.HttpClient#execute", request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, response, thrown);
        }
    }
}
