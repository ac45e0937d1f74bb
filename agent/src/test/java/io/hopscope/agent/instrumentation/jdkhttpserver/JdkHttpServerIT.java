package io.hopscope.agent.instrumentation.jdkhttpserver;

import io.hopscope.agent.testing.ServerChecks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's HTTP server with an executor of its own: each exchange is an inbound request, begun
 * where the dispatcher handed it to the executor, ending when its response is written (ServerChecks).
 * The failing handler's exception makes the server drop the connection: no status.
 */
class JdkHttpServerIT {

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void anExchangeIsARequestFromTheDispatchersHandOver(String java) throws Exception {
        ServerChecks.check(java, new ServerChecks.Expected("JdkHttpServerApp", "com.sun.net.httpserver.HttpHandler#handle")
                .queue("HTTP-Dispatcher", "jdk-server-worker")
                .failedStatus(-1));
    }
}
