package io.hopscope.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.hopscope.agent.instrumentation.azurecore.AzureCoreInstrumentation;
import io.hopscope.agent.instrumentation.netty.NettyInstrumentation;
import io.hopscope.agent.instrumentation.okhttp.OkHttpInstrumentation;
import io.hopscope.agent.instrumentation.reactor.ReactorInstrumentation;
import io.hopscope.agent.instrumentation.reactorpool.ReactorPoolInstrumentation;
import io.hopscope.agent.testing.RelocatedSamples;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

/**
 * Library copies relocated under another package: found by the name after the prefix, in the
 * loaders that have that copy, named in AgentInfo by where they went, and the agent's code that
 * names the library rewritten for them. On the samples build's relocated jar, a real shaded copy.
 */
class RelocationTest {

    private static final String EXECUTOR = "io.netty.util.concurrent.SingleThreadEventExecutor";

    @Test
    void aCopyIsTheOriginalNameAfterAPackagePrefix() {
        assertThat(Relocation.prefixOf(EXECUTOR, EXECUTOR)).isEmpty();
        assertThat(Relocation.prefixOf("com.example.shaded." + EXECUTOR, EXECUTOR)).isEqualTo("com.example.shaded.");
        assertThat(Relocation.prefixOf("io.grpc.netty.shaded." + EXECUTOR, EXECUTOR)).isEqualTo("io.grpc.netty.shaded.");
        // A name that merely ends the same way is no copy: the suffix must start a package.
        assertThat(Relocation.prefixOf("com.example.Xio.netty.util.concurrent.SingleThreadEventExecutor", EXECUTOR)).isNull();
        assertThat(Relocation.prefixOf("io.netty.util.concurrent.SingleThreadEventExecutor$1", EXECUTOR)).isNull();
        assertThat(Relocation.prefixOf("netty.util.concurrent.SingleThreadEventExecutor", EXECUTOR)).isNull();
        assertThat(Relocation.prefixOf("com.example.Other", "a.B", "com.example.Other")).isEmpty();
    }

    @Test
    void copiesAreNamedByWhereTheLibraryWent() {
        assertThat(new NettyInstrumentation().copyName("")).isEqualTo("netty");
        assertThat(new NettyInstrumentation().copyName("com.example.shaded.")).isEqualTo("netty@com.example.shaded.io.netty");
        assertThat(new ReactorInstrumentation().copyName("x.")).isEqualTo("reactor@x.reactor.core");
        assertThat(new AzureCoreInstrumentation().copyName("x.")).isEqualTo("azure-core@x.com.azure.core");
        assertThat(new OkHttpInstrumentation(false).copyName("x.")).isEqualTo("okhttp@x.okhttp3");
        // reactor-netty's own copy of reactor-pool is the usual one: named as the original.
        ReactorPoolInstrumentation pool = new ReactorPoolInstrumentation();
        assertThat(pool.copyName("reactor.netty.internal.shaded.")).isEqualTo("reactor-pool");
        assertThat(pool.copyName("com.example.shaded.reactor.netty.internal.shaded."))
                .isEqualTo("reactor-pool@com.example.shaded.reactor.netty.internal.shaded.reactor.pool");
    }

    @Test
    void aRuleMatchesTheCopyInTheLoaderThatHasIt() throws Exception {
        assumeThat(RelocatedSamples.built()).as("relocated samples jar at %s", RelocatedSamples.jar()).isTrue();
        try (URLClassLoader relocated = RelocatedSamples.loader()) {
            LibraryLoaders netty = new LibraryLoaders(EXECUTOR, EXECUTOR, "io.netty");
            TypeDescription copy = TypeDescription.ForLoadedType.of(
                    Class.forName("com.example.shaded." + EXECUTOR, false, relocated));
            LibraryLoaders.CopyRule rule = netty.named(EXECUTOR);
            assertThat(rule.prefixOf(copy)).isEqualTo("com.example.shaded.");
            assertThat(rule.matches(copy, relocated, null, null, null)).isTrue();
            // Not in a loader without that copy, nor the original where only the copy is.
            assertThat(rule.matches(copy, getClass().getClassLoader(), null, null, null)).isFalse();
            assertThat(netty.matches(relocated)).isFalse();
            assertThat(netty.found()).isFalse();
            assertThat(netty.copiesFound()).containsExactly("com.example.shaded.");
        }
    }

    @Test
    void aSubTypeRuleFindsTheCopyThroughTheSuperType() throws Exception {
        assumeThat(RelocatedSamples.built()).as("relocated samples jar at %s", RelocatedSamples.jar()).isTrue();
        try (URLClassLoader relocated = RelocatedSamples.loader()) {
            String loop = "io.netty.channel.nio.NioEventLoop";
            LibraryLoaders netty = new LibraryLoaders(EXECUTOR, EXECUTOR, "io.netty");
            LibraryLoaders.CopyRule rule = netty.subTypesOf(Matchers.notJdk(), EXECUTOR);
            TypeDescription copy = TypeDescription.ForLoadedType.of(Class.forName("com.example.shaded." + loop, false, relocated));
            // The class itself names the copy's package: noticed, then matched through its super class.
            assertThat(rule.matches(copy, relocated, null, null, null)).isTrue();
            assertThat(rule.prefixOf(copy)).isEqualTo("com.example.shaded.");
            assertThat(rule.matches(TypeDescription.ForLoadedType.of(String.class), relocated, null, null, null)).isFalse();
        }
    }

    @Test
    void adviceNamingTheLibraryIsRewrittenForTheCopyItIsInlinedInto() throws Exception {
        assumeThat(RelocatedSamples.built()).as("relocated samples jar at %s", RelocatedSamples.jar()).isTrue();
        byte[] original = Relocation.classFileOf("io.hopscope.agent.instrumentation.netty.NettyInstrumentation$ReadAdvice");
        try (URLClassLoader relocated = RelocatedSamples.loader()) {
            String remapped = new String(Relocation.remap(original, "com.example.shaded.", relocated), StandardCharsets.ISO_8859_1);
            assertThat(remapped).contains("com/example/shaded/io/netty/channel/Channel")
                    .contains("com/example/shaded/io/netty/util/AttributeKey")
                    // The agent's bridge and the JDK stay where they are.
                    .contains("io/hopscope/agent/bootstrap/Bridge").contains("java/lang/Object");
            assertThat(remapped.replace("com/example/shaded/io/netty/", "")).doesNotContain("io/netty/");
        }
        // Where the loader has no such copy, nothing is renamed.
        String kept = new String(Relocation.remap(original, "com.example.shaded.", ClassLoader.getPlatformClassLoader()),
                StandardCharsets.ISO_8859_1);
        assertThat(kept).contains("io/netty/channel/Channel").doesNotContain("com/example/shaded");
    }
}
