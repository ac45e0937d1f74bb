package io.hopscope.testapps;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Netty's own client and server on 127.0.0.1, one event loop each (Netty's threads, which are
 * FastThreadLocalThreads): each request writes a line on the client's channel from the caller, and
 * the client's loop reads the echoed line, allocates {@link #READ_ALLOCATION} bytes for it and hands
 * it to the caller, who waits in CompletableFuture#get. The last request's line is {@code block}:
 * the client's loop then blocks in CompletableFuture#get in its read until a thread outside the
 * request completes that future (the loop seen parked first, so the wait really blocks). After the
 * requests, the server pushes a line nobody asked for, which the client's loop reads outside any
 * request. Argument: request count (the block request is one more). Written against the API every
 * Netty the rules support has, 4.0.26 to 4.2 (NioEventLoopGroup, deprecated in 4.2 for
 * MultiThreadIoEventLoopGroup, makes the same NioEventLoops there).
 */
public final class NettyApp {

    /** What the client's loop allocates for each line it reads. */
    static final int READ_ALLOCATION = 1 << 20;

    static volatile byte[] sink;

    private final AtomicReference<CompletableFuture<String>> reply = new AtomicReference<>();
    private final CompletableFuture<String> unsolicited = new CompletableFuture<>();
    private final Channel channel;

    NettyApp(Channel channel) {
        this.channel = channel;
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        EventLoopGroup serverLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("server-loop"));
        EventLoopGroup clientLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("client-loop"));
        AtomicReference<Channel> serverSide = new AtomicReference<>();
        AtomicReference<NettyApp> app = new AtomicReference<>();
        try {
            Channel server = new ServerBootstrap().group(serverLoop).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            serverSide.set(ch);
                            ch.pipeline().addLast(new Echo());
                        }
                    })
                    .bind("127.0.0.1", 0).sync().channel();
            Channel client = new Bootstrap().group(clientLoop).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new Lines(app));
                        }
                    })
                    .connect(server.localAddress()).sync().channel();
            app.set(new NettyApp(client));
            int ok = 0;
            for (int i = 0; i < count; i++) {
                String line = "request " + i;
                if (app.get().exchange(line).equals(line)) {
                    ok++;
                }
            }
            if (app.get().exchange("block").equals("block")) {
                ok++;
            }
            // Outside any request: the server writes, the client's loop reads on the same channel.
            serverSide.get().writeAndFlush(Unpooled.copiedBuffer("unsolicited\n", StandardCharsets.US_ASCII));
            System.out.println("unsolicited: " + app.get().unsolicited.get(10, TimeUnit.SECONDS));
            System.out.println("responses ok: " + ok);
            if (ok != count + 1) {
                System.exit(1);
            }
        } finally {
            clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            serverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** The request boundary (requests=io.hopscope.testapps.NettyApp#exchange): one line out, its echo back. */
    public String exchange(String line) throws Exception {
        CompletableFuture<String> echoed = new CompletableFuture<>();
        reply.set(echoed);
        channel.writeAndFlush(Unpooled.copiedBuffer(line + "\n", StandardCharsets.US_ASCII));
        return echoed.get(10, TimeUnit.SECONDS);
    }

    /** On the client's loop: a whole line read. */
    void lineRead(String line) throws Exception {
        sink = new byte[READ_ALLOCATION];
        if (line.equals("unsolicited")) {
            unsolicited.complete(line);
            return;
        }
        if (line.equals("block")) {
            blockOnTheLoop();
        }
        reply.get().complete(line);
    }

    /** The deadlock-prone pattern, on purpose: the loop waits for another thread. */
    private static void blockOnTheLoop() throws Exception {
        Thread loop = Thread.currentThread();
        CompletableFuture<String> other = new CompletableFuture<>();
        Thread unblocker = new Thread(() -> {
            try {
                while (loop.getState() != Thread.State.TIMED_WAITING) {
                    Thread.sleep(1);
                }
                other.complete("done");
            } catch (InterruptedException e) {
                other.completeExceptionally(e);
            }
        }, "unblocker");
        unblocker.start();
        other.get(10, TimeUnit.SECONDS);
    }

    /** The server: echoes what it reads. */
    static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }

    /** The client: splits what it reads into lines (a line may come in pieces). */
    static final class Lines extends ChannelInboundHandlerAdapter {
        private final AtomicReference<NettyApp> app;
        private final StringBuilder pending = new StringBuilder();

        Lines(AtomicReference<NettyApp> app) {
            this.app = app;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            ByteBuf buf = (ByteBuf) msg;
            try {
                pending.append(buf.toString(StandardCharsets.US_ASCII));
            } finally {
                buf.release();
            }
            for (int end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
                String line = pending.substring(0, end);
                pending.delete(0, end + 1);
                app.get().lineRead(line);
            }
        }
    }
}
