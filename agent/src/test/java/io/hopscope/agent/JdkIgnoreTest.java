package io.hopscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.HopscopeInstrumentation;
import io.hopscope.agent.instrumentation.Matchers;
import io.hopscope.settings.AgentOptions;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import org.junit.jupiter.api.Test;

/**
 * The agent ignores the JDK's classes by name, but those its instrumentations name: a JDK class a
 * rule transforms and no instrumentation names would silently stay untransformed.
 */
class JdkIgnoreTest {

    @Test
    void ignoresJdkClassesByNameAndKeepsNamedOnesAndEveryLibrary() {
        ElementMatcher<TypeDescription> ignored = Matchers.jdkExcept(List.of("java.util.concurrent.", "java.lang.Thread"));

        assertThat(ignored.matches(type("java.lang.String"))).isTrue();
        assertThat(ignored.matches(type("javax.net.ssl.SSLContext"))).isTrue();
        assertThat(ignored.matches(type("jdk.internal.misc.Unsafe"))).isTrue();
        assertThat(ignored.matches(type("sun.nio.ch.SocketChannelImpl"))).isTrue();
        assertThat(ignored.matches(type("com.sun.net.httpserver.HttpServer"))).isTrue();
        // A name is exact, a prefix ends in a dot.
        assertThat(ignored.matches(type("java.lang.ThreadLocal"))).isTrue();
        assertThat(ignored.matches(type("java.lang.Thread"))).isFalse();
        assertThat(ignored.matches(type("java.util.concurrent.ThreadPoolExecutor"))).isFalse();
        assertThat(ignored.matches(type("java.util.concurrent.locks.LockSupport"))).isFalse();
        // Not the JDK's: libraries and the application, whatever their names look like.
        assertThat(ignored.matches(type("okhttp3.OkHttpClient"))).isFalse();
        assertThat(ignored.matches(type("javaxyz.Executor"))).isFalse();
        assertThat(ignored.matches(type("com.sunny.Pool"))).isFalse();
        assertThat(ignored.matches(type("io.netty.util.concurrent.SingleThreadEventExecutor"))).isFalse();
    }

    @Test
    void everyJdkClassTheAgentTransformsIsNamedByAnInstrumentation() {
        AgentOptions options = AgentOptions.parse("requests=com.sun.net.httpserver.HttpServer#start", message -> { });
        Set<String> named = new TreeSet<>();
        for (HopscopeInstrumentation each : AgentInstaller.instrumentations(options)) {
            named.addAll(each.jdkClasses());
        }
        ElementMatcher<TypeDescription> ignored = Matchers.jdkExcept(named);

        for (HopscopeInstrumentation each : AgentInstaller.instrumentations(options)) {
            for (String jdkClass : each.preloadedClasses()) {
                assertThat(ignored.matches(type(jdkClass))).as(jdkClass).isFalse();
            }
        }
        assertThat(ignored.matches(type("java.lang.Thread"))).isFalse();
        assertThat(ignored.matches(type("jdk.internal.net.http.HttpClientImpl"))).isFalse();
        // A requests= boundary in the JDK is kept too.
        assertThat(ignored.matches(type("com.sun.net.httpserver.HttpServer"))).isFalse();
        assertThat(ignored.matches(type("java.util.HashMap"))).isTrue();
    }

    private static TypeDescription type(String name) {
        return new TypeDescription.Latent(name, 0, TypeDescription.Generic.OBJECT);
    }
}
