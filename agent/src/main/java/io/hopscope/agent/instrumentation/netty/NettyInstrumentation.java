package io.hopscope.agent.instrumentation.netty;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.hopscope.agent.bootstrap.Bridge;
import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.LibraryLoaders;
import io.hopscope.agent.instrumentation.Relocation;
import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.instrumentation.executors.ExecutorsInstrumentation;
import io.hopscope.agent.runtime.LibraryRules;
import io.netty.channel.Channel;
import io.netty.channel.ServerChannel;
import io.netty.util.AttributeKey;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Carries the current request into Netty event loops: SingleThreadEventExecutor#execute and
 * #lazyExecute (a channel write from a caller thread arrives on the loop this way), and from a
 * channel's write to the reads that follow it: the request that last wrote on a channel (captured in
 * ChannelOutboundBuffer#addMessage, on the loop) is current while the loop reads from the channel
 * (DefaultChannelPipeline#fireChannelRead), so the response's decoding and delivery, and what they
 * allocate, are the request's. Kept in the channel's own attribute map: no shared table on the
 * loops' hot paths. A read after the request ended (an idle pooled connection) is in no request,
 * and so is every read of a connection a server accepted (its requests are the server's: see WriteAdvice).
 * Every rule also matches a copy of Netty relocated under another package (see LibraryLoaders).
 */
public final class NettyInstrumentation implements HopscopeInstrumentation {

    /**
     * The channel attribute that holds the request that last wrote on it. A compile-time constant:
     * the advice is inlined into Netty's classes, where javac's copy of it is all there is.
     */
    static final String REQUEST_ATTRIBUTE = "hopscope.request";

    /** The read and write advice, rewritten for each relocated copy of Netty they are inlined into. */
    private static final Relocation.AdviceForCopies WRITE = new Relocation.AdviceForCopies(WriteAdvice.class);
    private static final Relocation.AdviceForCopies READ = new Relocation.AdviceForCopies(ReadAdvice.class);
    private static final Relocation.AdviceForCopies READ_40 = new Relocation.AdviceForCopies(ReadAdvice40.class);

    @Override
    public String name() {
        return "netty";
    }

    /** SingleThreadEventExecutor#execute(Runnable) is public since Netty 4.0; lazyExecute since 4.1.44. */
    @Override
    public String requiredClass() {
        return "io.netty.util.concurrent.SingleThreadEventExecutor";
    }

    /**
     * 4.0.26 is the first whose AttributeKey.valueOf gives the key of a name already in use (before,
     * it threw, so the channel advice worked once per JVM); ChannelOutboundBuffer#addMessage(msg,
     * size, promise) is 4.0.22's, FastThreadLocalThread 4.0.20's.
     */
    @Override
    public SupportedVersions versions() {
        return SupportedVersions.of("io.netty:netty-transport", "4.0.26.Final", "4.2.20.Final");
    }

    /**
     * Netty's event loops run on FastThreadLocalThread (its DefaultThreadFactory's threads): a wait
     * there stalls every connection of the loop (and on a relocated copy's: see LibraryRules).
     *
     * <p>A loop's own run is handed to its thread factory when the loop first starts, inside
     * whichever request's write started it. From an application's factory (a lambda, Guava's
     * ThreadFactoryBuilder: a plain java.lang.Thread, where Netty's own makes FastThreadLocalThreads)
     * that thread would be a task of that request for the loop's lifetime, and every later request's
     * callbacks from the loop hops of the first one (a gRPC client given such a factory: all of 200
     * calls' ways back were the first call's). The loop's run (from 4.1.42 wrapped by
     * ThreadExecutorMap, which maps the thread to its loop), and the loop's other anonymous tasks
     * (the wake-up, the purge), are the library's own.
     */
    @Override
    public void addRules(LibraryRules rules) {
        rules.addNonBlockingThreadType("io.netty.util.concurrent.FastThreadLocalThread");
        rules.addHousekeepingTask("io.netty.util.concurrent.SingleThreadEventExecutor$");
        rules.addHousekeepingTask("io.netty.util.internal.ThreadExecutorMap$");
    }

    @Override
    public AgentBuilder extend(AgentBuilder builder, ElementMatcher<ClassLoader> libraryLoaders) {
        LibraryLoaders copies = LibraryLoaders.of(libraryLoaders);
        LibraryLoaders.CopyRule outboundBuffer = copies.named("io.netty.channel.ChannelOutboundBuffer");
        LibraryLoaders.CopyRule pipeline = copies.named("io.netty.channel.DefaultChannelPipeline");
        return builder.type(copies.named("io.netty.util.concurrent.SingleThreadEventExecutor"))
                .transform((b, type, loader, module, domain) -> b.visit(
                        Advice.to(ExecutorsInstrumentation.RunnableAdvice.class)
                                .on(namedOneOf("execute", "lazyExecute").and(takesArguments(Runnable.class)))))
                // Both have had a "channel" field since Netty 4.0. Their advice names Netty's
                // Channel and AttributeKey: rewritten for each relocated copy.
                .type(outboundBuffer)
                .transform((b, type, loader, module, domain) -> b.visit(
                        WRITE.forCopy(outboundBuffer.prefixOf(type), loader).on(named("addMessage").and(takesArguments(3)))))
                .type(pipeline)
                .transform((b, type, loader, module, domain) -> b.visit(
                        (channelHasHasAttr(type) ? READ : READ_40).forCopy(pipeline.prefixOf(type), loader)
                                .on(named("fireChannelRead").and(takesArguments(1)).and(not(isBridge())))));
    }

    /**
     * Whether the channel a DefaultChannelPipeline holds has AttributeMap#hasAttr, which Netty 4.1
     * added: 4.0's has only attr, and a read advice that called hasAttr there failed (silently,
     * suppressed) on every read, leaving every response outside its request.
     */
    static boolean channelHasHasAttr(TypeDescription pipeline) {
        try {
            for (FieldDescription.InDefinedShape field : pipeline.getDeclaredFields().filter(named("channel"))) {
                return declares(field.getType().asErasure(), "hasAttr");
            }
        } catch (RuntimeException unresolved) {
            // A type the class loader cannot describe: take it for 4.1 or later, as every Netty in use is.
        }
        return true;
    }

    private static boolean declares(TypeDefinition type, String method) {
        if (type == null) {
            return false;
        }
        if (!type.getDeclaredMethods().filter(named(method)).isEmpty()) {
            return true;
        }
        for (TypeDefinition each : type.getInterfaces()) {
            if (declares(each, method)) {
                return true;
            }
        }
        return declares(type.getSuperClass(), method);
    }

    /*
     * The channel is read as an Object and cast in the body: Byte Buddy reads an advice method's
     * signature by reflection in the agent's class loader, where a Channel parameter would have to
     * load Netty, which a Spring Boot jar's or an application server's Netty is not. The body, once
     * inlined, resolves Channel in the Netty class it is inlined into.
     */

    /**
     * ChannelOutboundBuffer#addMessage, on the channel's loop: the request writing, if any. Not on a
     * channel a server accepted (its parent is a ServerChannel): what a server reads next on a
     * connection is the client's next request, or another stream's on HTTP/2 (gRPC's calls
     * multiplexed on one connection), never the response to what it wrote; the server's own
     * instrumentation puts its reads in their requests.
     */
    static final class WriteAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("channel") Object channel) {
            Channel c = (Channel) channel;
            if (c.parent() instanceof ServerChannel) {
                return;
            }
            Object captured = Bridge.captureIoContext(channel);
            if (captured != null) {
                c.attr(AttributeKey.valueOf(REQUEST_ATTRIBUTE)).set(captured);
            }
        }
    }

    /** DefaultChannelPipeline#fireChannelRead, on the channel's loop: in the request that last wrote. */
    static final class ReadAdvice {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.FieldValue("channel") Object channel) {
            AttributeKey<Object> key = AttributeKey.valueOf(REQUEST_ATTRIBUTE);
            Channel c = (Channel) channel;
            return c.hasAttr(key) ? Bridge.ioContextEnter(c.attr(key).get()) : null;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }

    /**
     * The same on Netty 4.0, which has no hasAttr: attr makes the attribute on a channel's first
     * read where no request wrote (one small object per such channel, not per read).
     */
    static final class ReadAdvice40 {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@Advice.FieldValue("channel") Object channel) {
            Object captured = ((Channel) channel).attr(AttributeKey.valueOf(REQUEST_ATTRIBUTE)).get();
            return captured == null ? null : Bridge.ioContextEnter(captured);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object token) {
            Bridge.contextExit(token);
        }
    }
}
