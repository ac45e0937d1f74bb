package io.hopscope.testapps.servers;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@link ServerStudy} on Jetty 12's core server, a blocking handler, with a {@code QueuedThreadPool}
 * of one acceptor, one selector and {@link ServerStudy#SERVER_THREADS} threads for requests (Jetty
 * takes its acceptor and selector threads from the same pool). No reserved threads: the selector
 * hands every request to the pool's queue (produce-execute-consume) rather than running one itself
 * while a reserved thread takes over selecting. Each response closes its connection: on a kept-alive
 * one, the thread that completed a response reads the connection's next request itself when it has
 * already arrived, with no hand-over, which would leave the study's queue to the client's timing
 * (JettyCasesApp's pipelined requests show that case). A handler that throws is answered 500 by Jetty.
 *
 * <p>With the argument {@code virtual} (JDK 21+), the pool's virtual threads executor runs each
 * request on a virtual thread of its own ({@code QueuedThreadPool#setVirtualThreadsExecutor}): the
 * selector's hand-over to it is the request's first hop, and nothing queues behind a held handler.
 */
public final class JettyApp {

    public static final String POOL = "jetty-study";
    public static final String VIRTUAL = "jetty-virtual-";

    public static void main(String[] args) throws Exception {
        boolean virtual = args.length > 0 && args[0].equals("virtual");
        int threads = 2 + ServerStudy.SERVER_THREADS;
        QueuedThreadPool pool = new QueuedThreadPool(threads, threads);
        pool.setName(POOL);
        pool.setReservedThreads(0);
        if (virtual) {
            pool.setVirtualThreadsExecutor(namedVirtualThreads());
        }
        Server server = new Server(pool);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        try (ServerStudy study = new ServerStudy()) {
            study.queuedWhen(virtual ? () -> true : () -> pool.getQueueSize() > 0);
            server.setHandler(new Handler.Abstract() {
                @Override
                public boolean handle(Request request, Response response, Callback callback) throws Exception {
                    String body = study.handle(Request.getPathInContext(request));
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONNECTION, "close");
                    Content.Sink.write(response, true, body, callback);
                    return true;
                }
            });
            server.start();
            study.run("http://127.0.0.1:" + connector.getLocalPort());
            server.stop();
        }
    }

    /**
     * {@code Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(VIRTUAL, 0).factory())}, by
     * reflection: the tests compile for JDK 17 (Jetty 12.0.0's own executor names no thread).
     */
    static Executor namedVirtualThreads() throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
        builder = ofVirtual.getMethod("name", String.class, long.class).invoke(builder, VIRTUAL, 0L);
        ThreadFactory factory = (ThreadFactory) ofVirtual.getMethod("factory").invoke(builder);
        return (Executor) Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class).invoke(null, factory);
    }
}
