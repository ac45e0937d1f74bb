package io.hopscope.agent.instrumentation.jetty;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.ServerAdvice;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Jetty 12's core server: an inbound request begins at {@code Server#handle(Request, Response,
 * Callback)}, the outermost entry of every request on the thread that runs it (HttpChannelState's
 * handler invoker calls it once the request's head is parsed, for HTTP/1.1, 2 and 3 alike, before
 * any handler: a servlet or any other handler inside is a layer of it; its exchange is the {@code
 * Response}, which has the request and its status), and ends when Jetty completes
 * the request's {@code HttpStream} (see {@link JettyDescriber}), on whichever thread that is: after
 * the handler's callback has completed, the handler has returned and the response's last write is
 * done. Not at the callback's completion, as a wrapped callback would see it: Jetty fails its own
 * callback, not the one it passed to the handler, when a handler throws, and writes a request no
 * handler took (404) through it, so neither would ever end; and the callback's completion is not
 * the response's end (the last write, or the error page Jetty writes after a failed callback, with
 * a status of its own, comes after it).
 *
 * <p>The server's queue: the selector produces a task per ready endpoint (the endpoint's fill-interest
 * task, {@code SelectableChannelEndPoint$RunnableCloseable}), which its execution strategy either
 * hands to the thread pool ({@code QueuedThreadPool#execute}, or the virtual threads' executor:
 * produce-execute-consume) or runs on the selecting thread itself while a reserved thread takes over
 * selecting (execute-produce-consume; a handler of the non-blocking kind always runs on the
 * selecting thread). The hand-over through {@code execute} is the request's server queue; a request
 * run by the thread that selected it has none. The any-executor rule wraps that task at
 * {@code QueuedThreadPool#execute}; {@code tryExecute} hands a reserved thread the selecting, never a
 * request.
 */
public final class JettyInstrumentation implements HopscopeInstrumentation {

    static final String SERVER = "org.eclipse.jetty.server.Server";
    static final String BOUNDARY = SERVER + "#handle";

    @Override
    public String name() {
        return "jetty";
    }

    /** Jetty 12's HttpStream (12.0.0): Jetty up to 11 has neither it nor the core Handler API. */
    @Override
    public String requiredClass() {
        return "org.eclipse.jetty.server.HttpStream";
    }

    @Override
    public String libraryPackage() {
        return "org.eclipse.jetty";
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.eclipse.jetty:jetty-server", "12.0.0", "12.1.14");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        return builder
                .type(LibraryLoaders.of(libraryLoaders).named(SERVER))
                .transform((b, type, loader, module, domain) -> b
                        .visit(ServerAdvice.of(BOUNDARY, 1).on(named("handle").and(takesArguments(3)).and(isPublic()))));
    }

    /**
     * The selector's endpoint task is the server's hand-over. Jetty's own loops, handed to its pool
     * or started as a thread while a request may be current (a pool thread started when
     * {@code execute} finds none idle, a reserved thread, an execution strategy's or a selector's
     * production, a selector's endpoint creation and destruction), are housekeeping: each would
     * otherwise carry that request for the rest of its life.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addServerQueueTask("org.eclipse.jetty.io.SelectableChannelEndPoint$RunnableCloseable");
        // A connection handed back to the pool to read on, when a request completed on a thread that
        // did not read it (an async handler's): the next request, if already sent, is read there.
        rules.addServerQueueTask("org.eclipse.jetty.server.internal.HttpConnection");
        rules.addHousekeepingTask("org.eclipse.jetty.util.thread.QueuedThreadPool$Runner");
        rules.addHousekeepingTask("org.eclipse.jetty.util.thread.ReservedThreadExecutor$ReservedThread");
        rules.addHousekeepingTask("org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy");
        rules.addHousekeepingTask("org.eclipse.jetty.io.ManagedSelector");
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addServerDescriber(LibraryHelper.serverDescriber(name(),
                "io.hopscope.agent.instrumentation.jetty.JettyDescriber", "org.eclipse.jetty.server.Request",
                "org.eclipse.jetty.server.Response", "org.eclipse.jetty.server.HttpStream"));
    }
}
