package io.hopscope.agent.instrumentation.tomcat;

import static net.bytebuddy.matcher.ElementMatchers.nameEndsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.ServerAdvice;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Tomcat, embedded or standalone (9 with javax, 10.1 and 11 with jakarta: the rules name only its
 * connector's classes, the same in all three): an inbound request begins at
 * {@code org.apache.coyote.Adapter#service(Request, Response)} (CoyoteAdapter), the outermost entry
 * on the worker thread, where the HTTP processor has parsed the request's head (its method, URI and
 * headers, so its name and traceparent) and before the mapper: a request no servlet answers (the
 * mapper's 404) is one too. It ends when service returns, with the coyote response's status, read
 * then: CoyoteAdapter recycles its catalina request and response before returning, the processor
 * recycles the coyote ones only after. An async servlet's request goes on after it: the servlet
 * layer inside it has arranged its end (an AsyncListener, see the servlet instrumentations), and
 * with them switched off ({@code disable=servlet-jakarta;servlet-javax}) such a request ends when
 * service returns.
 *
 * <p>The server queue: the poller hands each readable connection to the connector's executor as a
 * {@code SocketProcessorBase} (NioEndpoint$SocketProcessor), which reads and parses the request and
 * calls the adapter; the executor is Tomcat's own {@code org.apache.tomcat.util.threads.ThreadPoolExecutor}
 * (a copy of the JDK's since 9.0.x, a subclass before), or with {@code useVirtualThreads} its
 * {@code VirtualThreadExecutor}, whose {@code execute} the {@code any-executor} rule wraps: the
 * hand-over is the request's first hop, its delay the time the connection waited for a thread (for
 * a virtual one, its start and the wait for a carrier).
 */
public final class TomcatInstrumentation implements HopscopeInstrumentation {

    static final String BOUNDARY = "org.apache.coyote.Adapter#service";

    @Override
    public String name() {
        return "tomcat";
    }

    /** The connector's adapter interface, in Tomcat since 5; the oldest release supported is 9.0.1. */
    @Override
    public String requiredClass() {
        return "org.apache.coyote.Adapter";
    }

    @Override
    public String libraryPackage() {
        return "org.apache.coyote";
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("org.apache.tomcat.embed:tomcat-embed-core", "9.0.1", "11.0.27");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.subTypesOf(Matchers.notJdk(), "org.apache.coyote.Adapter"))
                .transform((b, type, loader, module, domain) -> b.visit(ServerAdvice.of(BOUNDARY, 0)
                        .on(named("service").and(takesArguments(2))
                                .and(takesArgument(0, nameEndsWith("org.apache.coyote.Request")))
                                .and(takesArgument(1, nameEndsWith("org.apache.coyote.Response"))))));
    }

    /** The poller's hand-over of a connection's next request to the connector's executor (9.0+). */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addServerQueueTask("org.apache.tomcat.util.net.SocketProcessorBase");
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addServerDescriber(LibraryHelper.serverDescriber(name(),
                "io.hopscope.agent.instrumentation.tomcat.TomcatDescriber", "org.apache.coyote.Request",
                "org.apache.coyote.Response"));
    }
}
