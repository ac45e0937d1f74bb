package io.hopscope.agent.instrumentation.okhttp;

import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.BoundaryAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.agent.instrumentation.SpanAdvice;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import io.hopscope.settings.AgentOptions;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * OkHttp: RealCall#execute is a request boundary (a synchronous call runs on the caller's thread
 * end to end), RealCall#enqueue one that ends when its Callback is called, and the application's
 * Interceptor implementations' intercept is an interceptor span. OkHttp's own chain (retry and
 * follow-up, bridge, cache, connect, call-server: package okhttp3.internal) are spans only with the
 * option okhttp-internal=true: five spans per call, each wrapping the whole exchange, cost more
 * than everything else the agent records for a synchronous call.
 */
public final class OkHttpInstrumentation implements HopscopeInstrumentation {

    private boolean internalInterceptors;

    @Override
    public void configure(AgentOptions options) {
        internalInterceptors = options.okhttpInternal();
    }

    @Override
    public String name() {
        return "okhttp";
    }

    /**
     * okhttp3.internal.connection.RealCall is the call class since OkHttp 4.4 (4.0 to 4.3 have
     * okhttp3.RealCall: the rules do not apply there).
     */
    @Override
    public String requiredClass() {
        return "okhttp3.internal.connection.RealCall";
    }

    @Override
    public String libraryPackage() {
        return "okhttp3";
    }

    /**
     * 4.4.0 moved RealCall to okhttp3.internal.connection (and has TaskRunner). From 5.0 Maven users
     * name okhttp-jvm (the okhttp artifact is an empty jar that Gradle resolves to it).
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("com.squareup.okhttp3:okhttp", "4.4.0", "5.5.1");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        ElementMatcher.Junction<TypeDescription> interceptors = internalInterceptors ? Matchers.notJdk()
                : Matchers.notJdk().and(not(nameStartsWith("okhttp3.internal.").or(nameContains(".okhttp3.internal."))));
        return builder
                .type(copies.named("okhttp3.internal.connection.RealCall"))
                .transform((b, type, loader, module, domain) -> b
                        .visit(BoundaryAdvice.of("okhttp3.Call#execute", BoundaryAdvice.THIS, BoundaryAdvice.Result.OBSERVED)
                                .on(named("execute").and(takesArguments(0))))
                        .visit(Advice.to(EnqueueAdvice.class).on(named("enqueue").and(takesArguments(1)))))
                .type(copies.subTypesOf(interceptors, "okhttp3.Interceptor"))
                .transform((b, type, loader, module, domain) -> b.visit(SpanAdvice.sync("interceptor")
                        .on(named("intercept").and(takesArguments(1)))));
    }

    /**
     * OkHttp 4's TaskRunner runs connection-pool cleanup and other timers on its own threads: its
     * tasks, though scheduled from inside a call, are not the call's work.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addHousekeepingTask("okhttp3.internal.concurrent.TaskRunner");
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        runtime.addDescriber(LibraryHelper.describer(name(), "io.hopscope.agent.instrumentation.okhttp.OkHttpDescriber",
                "okhttp3.Call", "okhttp3.Request", "okhttp3.Response"));
        // The callback's own type: the wrapper the adapter makes is one too, so it finds the same adapter.
        runtime.addAdapter(LibraryHelper.adapter(name(), "io.hopscope.agent.instrumentation.okhttp.OkHttpCallbacks",
                "okhttp3.Callback"));
    }

    /** RealCall#enqueue(Callback): the request ends when the callback is called. */
    static final class EnqueueAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object call,
                @Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
            Object token = Bridge.boundaryEnter("okhttp3.Call#enqueue", call);
            callback = Bridge.wrapCallback(token, callback);
            return token;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Argument(0) Object callback,
                @Advice.Thrown Throwable thrown) {
            Bridge.boundaryExit(token, callback, thrown);
        }
    }
}
