package io.hopscope.agent.instrumentation.tomcat;

import io.hopscope.agent.instrumentation.SupportedVersions;
import io.hopscope.agent.testing.Handovers;
import io.hopscope.agent.testing.LibraryVersions;
import io.hopscope.agent.testing.ServerChecks;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tomcat 11 on virtual request threads ({@code useVirtualThreads}): the poller's hand-over starts a
 * virtual thread per request, and that hand-over is the request's first hop, its delay the start
 * and the wait for a carrier (ServerChecks, with no queue held certain: no request waits for another's thread).
 */
public class TomcatVirtualIT {

    @ParameterizedTest
    @MethodSource("io.hopscope.agent.testing.Handovers#jvms")
    void aVirtualThreadsStartIsTheServerQueue(String java) throws Exception {
        Assumptions.assumeFalse(java.equals(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                && Runtime.version().feature() < 21, "virtual threads need JDK 21+: this JDK is "
                + Runtime.version().feature() + " (the second JDK, HOPSCOPE_JDK2, runs this test)");
        ServerChecks.check(java, expected());
    }

    /** The study on the newest Tomcat tested, a virtual thread per request. */
    public static ServerChecks.Expected expected() {
        SupportedVersions versions = new TomcatInstrumentation().versions();
        return new ServerChecks.Expected("TomcatApp", TomcatInstrumentation.BOUNDARY)
                .classPath(LibraryVersions.classPath(SupportedVersions.module("tomcat", versions.newest())))
                .args("virtual")
                .threadPerRequest()
                .queue(TomcatIT.POLLER, "http-nio-.*-virt-");
    }
}
