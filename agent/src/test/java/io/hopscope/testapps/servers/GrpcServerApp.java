package io.hopscope.testapps.servers;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NegotiationType;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link ServerStudy} on gRPC-java's server (grpc-netty-shaded on 127.0.0.1) with an executor of
 * {@link ServerStudy#SERVER_THREADS} threads: no protoc, methods of strings with a hand-written
 * marshaller. The study's load is HTTP's, so this app sends its own: the same clients and requests,
 * unary calls of {@code study.Orders/Get} whose message is the study's path, each with its
 * {@code traceparent} metadata, on one channel (one HTTP/2 connection: the calls are multiplexed on
 * it), printed in the study's line format with the gRPC status code for status; then the
 * malformed traceparent and the failing handler (it throws: UNKNOWN).
 *
 * <p>Three calls of its own, each with its traceparent ({@link #WATCH_TRACE}, ...), printed as
 * {@code call NAME TRACE_ID ...}: {@code Follow}, a server-streaming call whose messages a ticker
 * thread sends every {@link #TICK_MILLIS} until the client cancels it, open on the same connection
 * during the whole load: the client starts the load once it has its first message, so every call of
 * the load arrives on a connection the server has written on inside another call still in flight
 * (Netty's channel reads must not be given to that call), and cancels it after the load (the app
 * waits until the server's handler has seen the cancel); then {@code Watch}, a server-streaming call
 * whose handler returns at once and whose {@link #WATCH_MESSAGES} messages the ticker sends over
 * time, the last with the call's close; and {@code Reject}, a handler that fails the call with
 * FAILED_PRECONDITION. Exits non-zero when any call did not go as described.
 */
public final class GrpcServerApp {

    public static final String SERVICE = "study.Orders";
    public static final int WATCH_TRACE = 1001;
    public static final int FOLLOW_TRACE = 1002;
    public static final int REJECT_TRACE = 1003;
    public static final int WATCH_MESSAGES = 3;
    /** The ticker's interval between a stream's messages. */
    public static final long TICK_MILLIS = 20;

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

    static final MethodDescriptor<String, String> GET = method("Get", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<String, String> REJECT = method("Reject", MethodDescriptor.MethodType.UNARY);
    static final MethodDescriptor<String, String> WATCH = method("Watch", MethodDescriptor.MethodType.SERVER_STREAMING);
    static final MethodDescriptor<String, String> FOLLOW = method("Follow", MethodDescriptor.MethodType.SERVER_STREAMING);

    private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder().setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(UTF8).setResponseMarshaller(UTF8).build();
    }

    /** The app's for its whole life, a daemon never shut down: its main may run more than once in a JVM. */
    private static final ScheduledExecutorService TICKER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "study-ticker");
        t.setDaemon(true);
        return t;
    });
    /** Counted down when the server saw the Follow call cancelled: one for each run of main. */
    private static volatile CountDownLatch followCancelled;

    public static void main(String[] args) throws Exception {
        followCancelled = new CountDownLatch(1);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(ServerStudy.SERVER_THREADS, ServerStudy.SERVER_THREADS,
                0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> new Thread(r, "rpc-worker"));
        boolean ok;
        try (ServerStudy study = new ServerStudy()) {
            study.queuedWhen(() -> !executor.getQueue().isEmpty());
            Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                    .executor(executor).addService(service(study)).build().start();
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                    .negotiationType(NegotiationType.PLAINTEXT).build(); // usePlaintext() is 1.11's
            try {
                String followTrace = ServerStudy.traceparent(FOLLOW_TRACE);
                ClientCall<String, String> follow = traced(channel, followTrace).newCall(FOLLOW, CallOptions.DEFAULT);
                Iterator<String> following = ClientCalls.blockingServerStreamingCall(follow, "/follow");
                following.next(); // the server has written on the connection in the Follow call
                ok = load(channel);
                ok &= cancel(follow, followTrace) & watch(channel) & reject(channel);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        executor.shutdown();
        if (!ok) {
            System.out.println("study: a call failed");
            System.exit(1);
        }
    }

    private static ServerServiceDefinition service(ServerStudy study) {
        return ServerServiceDefinition.builder(SERVICE)
                .addMethod(GET, ServerCalls.asyncUnaryCall((String path, StreamObserver<String> response) -> {
                    String body;
                    try {
                        body = study.handle(path);
                    } catch (RuntimeException e) {
                        throw e; // the failing path: gRPC closes the call with UNKNOWN
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    response.onNext(body);
                    response.onCompleted();
                }))
                .addMethod(REJECT, ServerCalls.asyncUnaryCall((String path, StreamObserver<String> response) ->
                        response.onError(Status.FAILED_PRECONDITION.withDescription("rejected: " + path)
                                .asRuntimeException())))
                .addMethod(WATCH, ServerCalls.asyncServerStreamingCall((String path, StreamObserver<String> response) -> {
                    // Returns at once: the messages go later, from the ticker, the last with the close.
                    for (int i = 1; i <= WATCH_MESSAGES; i++) {
                        int n = i;
                        TICKER.schedule(() -> {
                            response.onNext(path + " " + n);
                            if (n == WATCH_MESSAGES) {
                                response.onCompleted();
                            }
                        }, n * TICK_MILLIS, TimeUnit.MILLISECONDS);
                    }
                }))
                .addMethod(FOLLOW, ServerCalls.asyncServerStreamingCall((String path, StreamObserver<String> response) -> {
                    ServerCallStreamObserver<String> call = (ServerCallStreamObserver<String>) response;
                    int[] sent = {0};
                    ScheduledFuture<?> ticks = TICKER.scheduleAtFixedRate(() -> response.onNext(path + " " + ++sent[0]),
                            TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
                    call.setOnCancelHandler(() -> {
                        ticks.cancel(false);
                        followCancelled.countDown();
                    });
                }))
                .build();
    }

    /** The study's load: CLIENTS threads of REQUESTS_PER_CLIENT calls, then the malformed traceparent and the failing call. */
    private static boolean load(ManagedChannel channel) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(ServerStudy.CLIENTS, r -> new Thread(r, "study-client"));
        List<Future<List<String>>> results = new ArrayList<>();
        for (int c = 0; c < ServerStudy.CLIENTS; c++) {
            int client = c;
            results.add(clients.submit(() -> {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < ServerStudy.REQUESTS_PER_CLIENT; i++) {
                    int n = client * ServerStudy.REQUESTS_PER_CLIENT + i + 1;
                    lines.add(get(channel, ServerStudy.ORDERS + n, ServerStudy.traceparent(n)));
                }
                return lines;
            }));
        }
        boolean ok = true;
        for (Future<List<String>> r : results) {
            for (String line : r.get(120, TimeUnit.SECONDS)) {
                System.out.println(line);
                ok &= line.contains(" status 0 ") && !line.endsWith(" handled -1");
            }
        }
        clients.shutdown();
        String malformed = get(channel, ServerStudy.ORDERS + "0", "00-NOT-A-TRACE-PARENT-01");
        System.out.println(malformed);
        ok &= malformed.contains(" status 0 ");
        System.out.println(get(channel, ServerStudy.FAIL, ServerStudy.traceparent(999)));
        return ok;
    }

    private static String get(ManagedChannel channel, String path, String traceparent) {
        long start = System.nanoTime();
        int status = 0;
        String body;
        try {
            body = ClientCalls.blockingUnaryCall(traced(channel, traceparent), GET, CallOptions.DEFAULT, path);
        } catch (StatusRuntimeException e) {
            status = e.getStatus().getCode().value();
            body = "";
        }
        return ServerStudy.line(traceparent, path, status, System.nanoTime() - start, body);
    }

    private static boolean watch(ManagedChannel channel) {
        String traceparent = ServerStudy.traceparent(WATCH_TRACE);
        List<String> messages = new ArrayList<>();
        int status = 0;
        try {
            ClientCalls.blockingServerStreamingCall(traced(channel, traceparent), WATCH, CallOptions.DEFAULT, "/watch")
                    .forEachRemaining(messages::add);
        } catch (StatusRuntimeException e) {
            status = e.getStatus().getCode().value();
        }
        System.out.println("call Watch " + traceId(traceparent) + " status " + status + " messages " + messages.size());
        return status == 0 && messages.size() == WATCH_MESSAGES;
    }

    /** The client cancels the Follow stream; the server's handler sees the cancel. */
    private static boolean cancel(ClientCall<String, String> follow, String traceparent) throws InterruptedException {
        follow.cancel("the client has what it wanted", null);
        boolean seen = followCancelled.await(30, TimeUnit.SECONDS);
        System.out.println("call Follow " + traceId(traceparent) + " cancelled " + seen);
        return seen;
    }

    private static boolean reject(ManagedChannel channel) {
        String traceparent = ServerStudy.traceparent(REJECT_TRACE);
        int status = 0;
        try {
            ClientCalls.blockingUnaryCall(traced(channel, traceparent), REJECT, CallOptions.DEFAULT, "/reject");
        } catch (StatusRuntimeException e) {
            status = e.getStatus().getCode().value();
        }
        System.out.println("call Reject " + traceId(traceparent) + " status " + status);
        return status == Status.Code.FAILED_PRECONDITION.value();
    }

    /** The channel with this call's traceparent in its metadata. */
    private static Channel traced(Channel channel, String traceparent) {
        Metadata headers = new Metadata();
        headers.put(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER), traceparent);
        return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    private static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }
}
