package io.hopscope.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.runtime.HopscopeRuntime;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Apache HttpClient's blocking client, 4 or 5 alike: CloseableHttpClient#doExecute(host, request,
 * context), where every execute overload ends up, is a request boundary. The exchange runs on the
 * caller's thread end to end, so a request has no hop; it ends when the response's head is read.
 * The two majors differ only in their names (packages, boundary, describer), which each subclass
 * gives; the advice is one, its boundary bound per major as a constant.
 */
public abstract class ApacheClientInstrumentation implements HopscopeInstrumentation {

    private final String name;
    private final String client;
    private final String libraryPackage;
    private final String boundary;
    private final String describer;
    private final String requestType;
    private final String responseType;

    /**
     * {@code client}: the major's CloseableHttpClient; {@code describer}: its RequestDescriber's
     * class, defined per copy of the library (LibraryHelper), keyed by its request and response types.
     */
    protected ApacheClientInstrumentation(String name, String client, String libraryPackage, String boundary,
            String describer, String requestType, String responseType) {
        this.name = name;
        this.client = client;
        this.libraryPackage = libraryPackage;
        this.boundary = boundary;
        this.describer = describer;
        this.requestType = requestType;
        this.responseType = responseType;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String requiredClass() {
        return client;
    }

    @Override
    public final String libraryPackage() {
        return libraryPackage;
    }

    @Override
    public final AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        // CloseableHttpClient#doExecute(HttpHost, request, HttpContext): the request describes it.
        Advice execute = BoundaryAdvice.of(boundary, 1, BoundaryAdvice.Result.OBSERVED);
        return builder
                .type(LibraryLoaders.of(libraryLoaders).subTypesOf(Matchers.notJdk(), client))
                .transform((b, type, loader, module, domain) -> b
                        .visit(execute.on(named("doExecute").and(takesArguments(3)).and(not(isAbstract())))));
    }

    @Override
    public final void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name, describer, requestType, responseType));
    }
}
