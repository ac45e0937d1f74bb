package io.hopscope.agent.instrumentation.reactor;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameEndsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.CompletionAdvice;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.hopscope.agent.runtime.LibraryRules;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Reactor's blocking calls: Mono#block (all overloads) joins a request whose result the Mono is,
 * and BlockingSingleSubscriber#blockingGet, where Mono#block, Flux#blockFirst and Flux#blockLast
 * really wait, is the wait (so the subscription work done inside block() is a segment, not a wait).
 */
public final class ReactorInstrumentation implements HopscopeInstrumentation {

    @Override
    public String name() {
        return "reactor";
    }

    /** Mono exists in every Reactor 3; BlockingSingleSubscriber#blockingGet since 3.0. */
    @Override
    public String requiredClass() {
        return "reactor.core.publisher.Mono";
    }

    /**
     * 3.1.6 added the NonBlocking marker of its schedulers' threads; the adapter's CoreSubscriber
     * is 3.1.0's (3.0 subscribed with a plain Subscriber).
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.projectreactor:reactor-core", "3.1.6.RELEASE", "3.8.8");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        return builder
                .type(copies.named("reactor.core.publisher.Mono"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(JoinAdvice.class)
                        .on(namedOneOf("block", "blockOptional"))))
                .type(copies.named("reactor.core.publisher.BlockingSingleSubscriber"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(WaitAdvice.class)
                        .on(named("blockingGet"))))
                // Its signals, where the blocked-on result completes (BlockingMonoSubscriber,
                // BlockingFirstSubscriber, BlockingLastSubscriber and onComplete in the base class).
                // Matched by name first: a super type matcher alone resolves every class loaded.
                .type(copies.subTypesOf(nameContains("reactor.core.publisher.Blocking").and(nameEndsWith("Subscriber")),
                        "reactor.core.publisher.BlockingSingleSubscriber"))
                .transform((b, type, loader, module, domain) -> b.visit(Advice.to(CompletionAdvice.class)
                        .on(namedOneOf("onNext", "onError", "onComplete").and(not(isAbstract())))));
    }

    /**
     * Threads marked with Reactor's NonBlocking interface (its parallel and single schedulers')
     * must not block; blockingGet's wait is named by the subscriber that waits, and its timeout
     * (block(Duration)) is an IllegalStateException of its own.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addNonBlockingThreadType("reactor.core.scheduler.NonBlocking");
        rules.addWaitKinds(ReactorInstrumentation::waitKind);
        rules.addTimeout(ReactorInstrumentation::isBlockTimeout);
    }

    /** How block(Duration) reports a timeout (BlockingSingleSubscriber#blockingGet, every Reactor 3). */
    static boolean isBlockTimeout(Throwable thrown) {
        String message = thrown.getMessage();
        return thrown instanceof IllegalStateException && message != null && message.startsWith("Timeout on blocking");
    }

    /**
     * The operator that blocks, by its BlockingSingleSubscriber's class (matched by name: Reactor
     * may be absent, or relocated).
     */
    static String waitKind(Object subscriber) {
        String name = subscriber == null ? "" : subscriber.getClass().getName();
        if (!name.startsWith("reactor.core.publisher.") && !name.contains(".reactor.core.publisher.")) {
            return null;
        }
        if (name.endsWith("BlockingFirstSubscriber")) {
            return "Flux.blockFirst";
        }
        if (name.endsWith("BlockingLastSubscriber")) {
            return "Flux.blockLast";
        }
        return "Mono.block";
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        // By name: ReactorAdapter extends Mono, so it is defined for each copy of Reactor.
        runtime.addAdapter(LibraryHelper.adapter(name(), "io.hopscope.agent.instrumentation.reactor.ReactorAdapter",
                "reactor.core.publisher.Mono"));
    }

    /** Mono#block: a wait on a request's own result joins that request. */
    static final class JoinAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object mono) {
            return Bridge.monoBlockEnter(mono);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.monoBlockExit(token);
        }
    }

    /** BlockingSingleSubscriber#blockingGet: the wait itself. */
    static final class WaitAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object subscriber) {
            return Bridge.waitEnter(null, subscriber);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.Thrown Throwable thrown) {
            Bridge.waitExit(token, thrown);
        }
    }
}
