package io.hopscope.agent.instrumentation.jdkhttpserver;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.ServerAdvice;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import java.lang.instrument.Instrumentation;
import java.util.Arrays;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The JDK's HTTP server ({@code com.sun.net.httpserver}): an inbound request begins at the outermost
 * {@code Filter.Chain#doFilter(HttpExchange)} on a thread, where the server runs the user's filters
 * and then the handler (every request goes through it, with or without filters, and the exchange's
 * head is parsed by then), and ends when its response is written to the end: the server's internal
 * "write finished" event, made for the exchange when the handler closes the response body or the
 * exchange ({@code sun.net.httpserver.Event(ExchangeImpl)}, on JDK 11 to 25), whichever thread does
 * it. A handler that hands the exchange to another thread keeps its request open until then.
 *
 * <p>The server's dispatcher thread reads nothing of a request: it hands each connection's
 * readiness to the server's executor as a {@code ServerImpl$Exchange} task, which parses the head
 * and runs the chain. With an executor of the application's ({@code HttpServer#setExecutor}), that
 * hand-over is the request's server queue; the default executor runs it on the dispatcher itself: none.
 */
public final class JdkHttpServerInstrumentation implements HopscopeInstrumentation {

    static final String BOUNDARY = "com.sun.net.httpserver.HttpHandler#handle";
    static final String CHAIN = "com.sun.net.httpserver.Filter$Chain";
    static final String EVENT = "sun.net.httpserver.Event";

    @Override
    public String name() {
        return "jdk-httpserver";
    }

    @Override
    public String requiredClass() {
        return null;
    }

    /** The server is the jdk.httpserver module's, which a runtime image may leave out. */
    @Override
    public boolean availableInJdk() {
        return ModuleLayer.boot().findModule("jdk.httpserver").isPresent();
    }

    @Override
    public List<String> jdkClasses() {
        return Arrays.asList(CHAIN, EVENT);
    }

    @Override
    public List<String> preloadedClasses() {
        return Arrays.asList(CHAIN, EVENT);
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(named(CHAIN))
                .transform((b, type, loader, module, domain) -> b
                        .visit(ServerAdvice.untilEnd(BOUNDARY, 0).on(named("doFilter").and(takesArguments(1)))))
                .type(named(EVENT))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(WriteFinishedAdvice.class).on(isConstructor().and(takesArguments(1)))));
    }

    /** The dispatcher's hand-over of a connection's next request to the server's executor. */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addServerQueueTask("sun.net.httpserver.ServerImpl$Exchange");
    }

    @Override
    public void register(HopscopeRuntime runtime, Instrumentation instrumentation) {
        JdkHttpServerDescriber describer = JdkHttpServerDescriber.open(instrumentation);
        if (describer != null) {
            runtime.addServerDescriber(describer);
        }
    }

    /** Event(ExchangeImpl): the exchange's response is written (a null exchange: the server stops). */
    static final class WriteFinishedAdvice {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) Object exchange) {
            Bridge.serverEnd(exchange, null);
        }
    }
}
