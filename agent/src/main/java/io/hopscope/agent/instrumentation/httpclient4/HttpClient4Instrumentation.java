package io.hopscope.agent.instrumentation.httpclient4;

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
 * Apache HttpClient 4: CloseableHttpClient#doExecute, where every execute overload ends up (those
 * with a ResponseHandler too, and the deprecated DefaultHttpClient's), is a request boundary. The
 * exchange runs on the caller's thread end to end, so a request has no hop; it ends when the
 * response's head is read: the body, read by the response handler or the caller after, is not in it.
 * Every rule also matches a copy of HttpClient 4 relocated under another package (see LibraryLoaders).
 */
public final class HttpClient4Instrumentation implements HopscopeInstrumentation {

    static final String CLIENT = "org.apache.http.impl.client.CloseableHttpClient";

    @Override
    public String name() {
        return "httpclient4";
    }

    /** CloseableHttpClient#doExecute(HttpHost, HttpRequest, HttpContext): HttpClient 4.3 and later. */
    @Override
    public String requiredClass() {
        return CLIENT;
    }

    /** HttpClient 4's and its core's package (httpcore 4 is org.apache.http too). */
    @Override
    public String libraryPackage() {
        return "org.apache.http";
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
                "io.hopscope.agent.instrumentation.httpclient4.HttpClient4Describer",
                "org.apache.http.HttpRequest", "org.apache.http.HttpResponse"));
    }

    /** CloseableHttpClient#doExecute(HttpHost, HttpRequest, HttpContext). */
    static final class ExecuteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.Argument(1) Object request) {
            return Bridge.boundaryEnter("org.apache.http.client.HttpClient#execute", request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, response, thrown);
        }
    }
}
