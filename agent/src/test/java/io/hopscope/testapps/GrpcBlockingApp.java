package io.hopscope.testapps;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * gRPC-java's blocking stub as an application calls it: {@link #request} makes one unary call
 * through {@code ClientCalls.blockingUnaryCall} (the caller drains a {@code ThreadlessExecutor}
 * it parks in, the response callback queued there by the client's event loop) against a gRPC
 * server in the same JVM on 127.0.0.1 (grpc-netty-shaded, relocated Netty). Each side has event
 * loops of its own, so that the client's way back comes from one thread: {@code client-loop-*}; the
 * server answers from {@code server-loop-*} after its handler ran on {@code server-worker}.
 * Args: the number of calls (each a request under {@code requests=GrpcBlockingApp#request}), made
 * one after another on {@code main} after one that connects; prints {@code calls ok: N}. With
 * {@code plain-threads} after it, the event loops' threads come from a factory of the application's
 * making (plain {@code java.lang.Thread}s named {@code client-loop}, ...) and there is no connecting
 * call: the first request starts the client's loop.
 */
public final class GrpcBlockingApp {

    static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<String>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    static final MethodDescriptor<String, String> ECHO = MethodDescriptor.<String, String>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("blocking.Echo", "Say"))
            .setRequestMarshaller(UTF8).setResponseMarshaller(UTF8).build();

    private static ManagedChannel channel;

    private GrpcBlockingApp() {
    }

    public static void main(String[] args) throws Exception {
        int calls = Integer.parseInt(args[0]);
        boolean plainThreads = args.length > 1 && args[1].equals("plain-threads");
        ExecutorService workers = Executors.newSingleThreadExecutor(r -> new Thread(r, "server-worker"));
        EventLoopGroup serverBoss = new NioEventLoopGroup(1, named("server-boss", plainThreads));
        EventLoopGroup serverLoop = new NioEventLoopGroup(1, named("server-loop", plainThreads));
        EventLoopGroup clientLoop = new NioEventLoopGroup(1, named("client-loop", plainThreads));
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .bossEventLoopGroup(serverBoss).workerEventLoopGroup(serverLoop)
                .channelType(NioServerSocketChannel.class).executor(workers)
                .addService(ServerServiceDefinition.builder("blocking.Echo")
                        .addMethod(ECHO, ServerCalls.asyncUnaryCall((String message, io.grpc.stub.StreamObserver<String> out) -> {
                            out.onNext("echo " + message);
                            out.onCompleted();
                        }))
                        .build())
                .build().start();
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .eventLoopGroup(clientLoop).channelType(NioSocketChannel.class)
                .negotiationType(NegotiationType.PLAINTEXT).build();
        int ok = 0;
        try {
            // The first call connects (name resolution on gRPC's executor, the connection's set-up):
            // made outside any request, so that each request is a call on a ready connection.
            if (!plainThreads) {
                ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, "warm-up");
            }
            for (int i = 0; i < calls; i++) {
                if (("echo " + i).equals(request(i))) {
                    ok++;
                }
            }
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            workers.shutdown();
            for (EventLoopGroup group : new EventLoopGroup[] {clientLoop, serverLoop, serverBoss}) {
                group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
        }
        System.out.println("calls ok: " + ok);
        if (ok != calls) {
            System.exit(1);
        }
    }

    /** The boundary: one blocking unary call. */
    public static String request(int i) {
        return ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, Integer.toString(i));
    }

    /**
     * Netty's own thread factory, as gRPC's default event loops have it (FastThreadLocalThreads named
     * NAME-POOL-N), or one of the application's making (plain Threads named NAME).
     */
    private static ThreadFactory named(String name, boolean plain) {
        if (plain) {
            return r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            };
        }
        return new DefaultThreadFactory(name, true);
    }
}
