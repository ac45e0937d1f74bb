package io.hopscope.agent.instrumentation.reactornetty;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryHelper;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Relocation;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.runtime.HopscopeRuntime;
import io.netty.handler.codec.http.HttpRequest;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * reactor-netty's HTTP server ({@code HttpServer}, so Spring WebFlux on it): each exchange, one
 * {@code HttpServerOperations} (the request and its response), is an inbound request.
 *
 * <p>Where it begins: {@code HttpServerOperations#onInboundNext} given the request's head, on the
 * channel's event loop. That is where reactor-netty applies the application's handler to the
 * exchange (its REQUEST_RECEIVED state change, inside), for every way a head arrives: HTTP/1.1
 * read straight from the connection, a pipelined request replayed when the one before it ends, an
 * HTTP/2 or HTTP/3 stream. The head is parsed just before (Netty's {@code HttpServerCodec}, then
 * {@code HttpTrafficHandler}, which makes the operations): there is no exchange to key a request
 * by earlier. The same method given more of the request's body (a POST's content) runs in the
 * request while it is open (serverResume), so the body's decoding on the loop is the request's.
 *
 * <p>Where it ends: {@code ChannelOperations#terminate}, which reactor-netty calls once an
 * exchange is over whatever ended it: the write of its response's last content
 * ({@code LastHttpContent}, or the whole {@code FullHttpResponse}) completed (the write's listener,
 * on the loop), or the connection closed first. So a response streamed from a {@code Flux} ends
 * with its last chunk written, not when the handler returns its publisher, and the end is on the
 * loop, which is where it is known. Its outcome: {@code HttpServerOperations#onOutboundError} (the
 * handler's publisher failed, or a write did: reactor-netty answers 500 or closes the connection)
 * makes it an error; {@code onInboundClose} (the connection closed before the exchange was over:
 * the client went away) cancelled, unless it failed.
 *
 * <p>No server queue: the event loop that reads a request's head applies the handler itself. What
 * the handler hands to other threads (a scheduler, a pool) are the request's hops, followed by the
 * executor and Reactor rules, and its response's writes from there come back to the loop through
 * the {@code netty} rule's event-loop hand-over.
 */
public final class ReactorNettyServerInstrumentation implements HopscopeInstrumentation {

    public static final String BOUNDARY = "reactor.netty.http.server.HttpServer#handle";
    static final String OPERATIONS = "reactor.netty.http.server.HttpServerOperations";
    static final String CHANNEL_OPERATIONS = "reactor.netty.channel.ChannelOperations";

    /** The entry advice names Netty's HttpRequest: rewritten for each relocated copy. */
    private static final Relocation.AdviceForCopies ENTRY = new Relocation.AdviceForCopies(EntryAdvice.class);

    @Override
    public String name() {
        return "reactor-netty-server";
    }

    /**
     * HttpServerOperations, with every method the rules name (onInboundNext, onOutboundError,
     * ChannelOperations#terminate and #onInboundClose), is in reactor-netty since 0.7; 1.0.0 is the
     * oldest tested.
     */
    @Override
    public String requiredClass() {
        return OPERATIONS;
    }

    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.projectreactor.netty:reactor-netty-http", "1.0.0", "1.3.7");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        LibraryLoaders.CopyRule operations = copies.named(OPERATIONS);
        return builder
                .type(operations)
                .transform((b, type, loader, module, domain) -> b
                        .visit(ENTRY.forCopy(operations.prefixOf(type), loader)
                                .on(named("onInboundNext").and(takesArguments(2))))
                        .visit(Advice.to(FailedAdvice.class).on(named("onOutboundError").and(takesArguments(1))))
                        .visit(Advice.to(ClosedAdvice.class).on(named("onInboundClose").and(takesArguments(0)))))
                // HttpServerOperations overrides onInboundClose since 1.1 without calling this one.
                .type(copies.named(CHANNEL_OPERATIONS))
                .transform((b, type, loader, module, domain) -> b
                        .visit(Advice.to(EndAdvice.class).on(named("terminate").and(takesArguments(0))))
                        .visit(Advice.to(ClosedAdvice.class).on(named("onInboundClose").and(takesArguments(0)))));
    }

    @Override
    public void register(HopscopeRuntime runtime) {
        // Each exchange is one request: never a layer of another (ServerDescriber#exchangesAreDistinct).
        runtime.addServerDescriber(LibraryHelper.serverDescriber(name(), true,
                "io.hopscope.agent.instrumentation.reactornetty.ReactorNettyServerDescriber",
                "reactor.netty.http.server.HttpServerRequest"));
    }

    /*
     * The operations are read as an Object (see NettyInstrumentation: an advice method's signature
     * is read by reflection in the agent's class loader, which may not see the library).
     */

    /** HttpServerOperations#onInboundNext: the request's head begins it; more of its body resumes it. */
    static final class EntryAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.This Object operations, @Advice.Argument(1) Object message) {
            return message instanceof HttpRequest ? Bridge.serverEnterUntilEnd(BOUNDARY, operations)
                    : Bridge.serverResume(operations);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token, @Advice.This Object operations, @Advice.Thrown Throwable thrown) {
            Bridge.serverExit(token, operations, thrown);
        }
    }

    /** ChannelOperations#terminate: the exchange is over (its last write completed, or its connection closed). */
    static final class EndAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object operations) {
            Bridge.serverEnd(operations, null);
        }
    }

    /** HttpServerOperations#onOutboundError: the handler's publisher, or a write, failed. */
    static final class FailedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object operations, @Advice.Argument(0) Throwable error) {
            Bridge.serverFailed(operations, error);
        }
    }

    /** #onInboundClose: the connection closed before the exchange was over. */
    static final class ClosedAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object operations) {
            Bridge.serverFailed(operations, null);
        }
    }
}
