package io.hopscope.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import io.hopscope.agent.instrumentation.asynchttpclient.AsyncHttpClientInstrumentation;
import io.hopscope.agent.instrumentation.azurecore.AzureCoreInstrumentation;
import io.hopscope.agent.instrumentation.httpclient4.HttpClient4Instrumentation;
import io.hopscope.agent.instrumentation.httpclient5.HttpClient5Instrumentation;
import io.hopscope.agent.instrumentation.httpclient5async.HttpAsyncClient5Instrumentation;
import io.hopscope.agent.instrumentation.netty.NettyInstrumentation;
import io.hopscope.agent.instrumentation.okhttp.OkHttpInstrumentation;
import io.hopscope.agent.instrumentation.reactor.ReactorInstrumentation;
import io.hopscope.agent.instrumentation.reactorpool.ReactorPoolInstrumentation;
import io.hopscope.agent.testing.RelocatedSamples;
import java.lang.instrument.ClassFileTransformer;
import java.lang.reflect.Modifier;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import net.bytebuddy.dynamic.scaffold.subclass.ConstructorStrategy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.implementation.StubMethod;
import net.bytebuddy.utility.JavaModule;
import org.junit.jupiter.api.Test;

/**
 * Library copies relocated under another package: found by the name after the prefix, in the
 * loaders that have that copy, named in AgentInfo by where they went, and the agent's code that
 * names the library rewritten for them. On the samples build's relocated jar, a real shaded copy;
 * the HTTP clients' rules on class files of their shapes made here under a relocated name.
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
        assertThat(new OkHttpInstrumentation().copyName("x.")).isEqualTo("okhttp@x.okhttp3");
        assertThat(new HttpClient5Instrumentation().copyName("x.")).isEqualTo("httpclient5@x.org.apache.hc.client5");
        assertThat(new HttpAsyncClient5Instrumentation().copyName("x."))
                .isEqualTo("httpclient5-async@x.org.apache.hc.client5");
        assertThat(new AsyncHttpClientInstrumentation().copyName("x.")).isEqualTo("async-http-client@x.org.asynchttpclient");
        assertThat(new HttpClient4Instrumentation().copyName("x.")).isEqualTo("httpclient4@x.org.apache.http");
        // reactor-netty's own copy of reactor-pool is the usual one: named as the original.
        ReactorPoolInstrumentation pool = new ReactorPoolInstrumentation();
        assertThat(pool.copyName("reactor.netty.internal.shaded.")).isEqualTo("reactor-pool");
        assertThat(pool.copyName("com.example.shaded.reactor.netty.internal.shaded."))
                .isEqualTo("reactor-pool@com.example.shaded.reactor.netty.internal.shaded.reactor.pool");
    }

    @Test
    void aRuleMatchesTheCopyInTheLoaderThatHasIt() throws Exception {
        RelocatedSamples.need();
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
        RelocatedSamples.need();
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
        RelocatedSamples.need();
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

    private static final String SHADED = "com.example.shaded.";

    @Test
    void httpClient5sRulesTransformACopyAndNotTheOriginalWhereOnlyTheCopyIs() {
        String client = "org.apache.hc.client5.http.impl.classic.CloseableHttpClient";
        String internal = "org.apache.hc.client5.http.impl.classic.InternalHttpClient";
        for (String prefix : List.of("", SHADED)) {
            ClassFiles library = new ClassFiles()
                    .abstractClass(prefix + client, "doExecute", 3)
                    .subclass(prefix + internal, prefix + client, "doExecute", 3);
            Transformed run = Transformed.by(new HttpClient5Instrumentation(), library);
            assertThat(run.transforms(prefix + internal)).as("%s in its own loader", prefix + internal).isTrue();
            assertThat(run.copiesFound()).isEqualTo(prefix.isEmpty() ? List.of() : List.of("httpclient5@" + SHADED + "org.apache.hc.client5"));
        }
        // A class of the copy's package that is no client is left alone, whatever its methods.
        String other = SHADED + "org.apache.hc.client5.http.impl.classic.Other";
        ClassFiles library = new ClassFiles().abstractClass(SHADED + client, "doExecute", 3)
                .subclass(other, Object.class.getName(), "doExecute", 3);
        assertThat(Transformed.by(new HttpClient5Instrumentation(), library).transforms(other)).isFalse();
    }

    @Test
    void httpClient4sRulesTransformACopy() {
        String client = "org.apache.http.impl.client.CloseableHttpClient";
        String internal = "org.apache.http.impl.client.InternalHttpClient";
        ClassFiles library = new ClassFiles().abstractClass(SHADED + client, "doExecute", 3)
                .subclass(SHADED + internal, SHADED + client, "doExecute", 3);
        Transformed run = Transformed.by(new HttpClient4Instrumentation(), library);
        assertThat(run.transforms(SHADED + internal)).isTrue();
        assertThat(run.copiesFound()).containsExactly("httpclient4@" + SHADED + "org.apache.http");
    }

    @Test
    void theAsyncHttpClient5sRulesTransformACopysClientAndReactor() {
        String client = "org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient";
        String internal = "org.apache.hc.client5.http.impl.async.InternalHttpAsyncClient";
        String session = "org.apache.hc.core5.reactor.IOSessionImpl";
        String channel = "org.apache.hc.core5.reactor.InternalDataChannel";
        ClassFiles library = new ClassFiles().abstractClass(SHADED + client, "doExecute", 6)
                .subclass(SHADED + internal, SHADED + client, "doExecute", 6)
                .subclass(SHADED + session, Object.class.getName(), "enqueue", 2)
                .dataChannel(SHADED + channel);
        Transformed run = Transformed.by(new HttpAsyncClient5Instrumentation(), library);
        assertThat(run.transforms(SHADED + internal)).isTrue();
        assertThat(run.transforms(SHADED + session)).isTrue();
        assertThat(run.transforms(SHADED + channel)).isTrue();
        assertThat(run.copiesFound()).containsExactly("httpclient5-async@" + SHADED + "org.apache.hc.client5");
        // The reactor's classes of a copy whose client is not in the loader are not this library's.
        ClassFiles reactorOnly = new ClassFiles().subclass(SHADED + session, Object.class.getName(), "enqueue", 2);
        assertThat(Transformed.by(new HttpAsyncClient5Instrumentation(), reactorOnly).transforms(SHADED + session)).isFalse();
    }

    @Test
    void asyncHttpClientsRuleTransformsACopyWhoseRequestIsTheCopys() {
        String client = "org.asynchttpclient.DefaultAsyncHttpClient";
        String request = "org.asynchttpclient.Request";
        for (String argumentPrefix : List.of(SHADED, "")) {
            ClassFiles library = new ClassFiles().executeRequest(SHADED + client, argumentPrefix + request);
            boolean transformed = Transformed.by(new AsyncHttpClientInstrumentation(), library).transforms(SHADED + client);
            // executeRequest(Request, AsyncHandler) of the copy takes the copy's Request, not the original's.
            assertThat(transformed).as("executeRequest(%s, ...)", argumentPrefix + request).isEqualTo(!argumentPrefix.isEmpty());
        }
    }

    /** Class files made for a test, in a loader that also serves them as resources (as a jar's loader does). */
    private static final class ClassFiles {
        private final Map<String, byte[]> files = new HashMap<>();
        private final Map<String, TypeDescription> types = new HashMap<>();

        /** An abstract public class with an abstract method of {@code arguments} Object parameters. */
        ClassFiles abstractClass(String name, String method, int arguments) {
            return add(new ByteBuddy().subclass(Object.class).name(name).modifiers(Modifier.PUBLIC | Modifier.ABSTRACT)
                    .defineMethod(method, Object.class, Modifier.PROTECTED | Modifier.ABSTRACT)
                    .withParameters(objects(arguments)).withoutCode().make());
        }

        /** A class extending {@code superName} (one of these, or the JDK's) with a concrete method of that shape. */
        ClassFiles subclass(String name, String superName, String method, int arguments) {
            TypeDescription superType = types.getOrDefault(superName, TypeDescription.ForLoadedType.of(Object.class));
            // No constructor: these class files are only transformed, never loaded.
            return add(new ByteBuddy().subclass(superType, ConstructorStrategy.Default.NO_CONSTRUCTORS).name(name)
                    .defineMethod(method, Object.class, Visibility.PUBLIC).withParameters(objects(arguments))
                    .intercept(FixedValue.nullValue()).make());
        }

        /** InternalDataChannel: its ioSession field and onIOEvent(int). */
        ClassFiles dataChannel(String name) {
            return add(new ByteBuddy().subclass(Object.class).name(name).defineField("ioSession", Object.class)
                    .defineMethod("onIOEvent", void.class, Visibility.PUBLIC).withParameters(int.class)
                    .intercept(StubMethod.INSTANCE).make());
        }

        /** DefaultAsyncHttpClient with executeRequest(requestType, Object), requestType an interface made here. */
        ClassFiles executeRequest(String name, String requestType) {
            add(new ByteBuddy().makeInterface().name(requestType).make());
            TypeDescription request = types.get(requestType);
            return add(new ByteBuddy().subclass(Object.class).name(name)
                    .defineMethod("executeRequest", Object.class, Visibility.PUBLIC).withParameters(request, TypeDescription.ForLoadedType.of(Object.class))
                    .intercept(FixedValue.nullValue()).make());
        }

        private ClassFiles add(DynamicType.Unloaded<?> type) {
            files.put(type.getTypeDescription().getName(), type.getBytes());
            types.put(type.getTypeDescription().getName(), type.getTypeDescription());
            return this;
        }

        private static Class<?>[] objects(int count) {
            Class<?>[] types = new Class<?>[count];
            Arrays.fill(types, Object.class);
            return types;
        }
    }

    /** One instrumentation's own rules (its extend), applied to class files as the JVM would give them. */
    private static final class Transformed {
        private final ClassFileTransformer transformer;
        private final HopscopeInstrumentation instrumentation;
        private final LibraryLoaders loaders;
        private final ClassFiles library;
        private final ClassLoader loader;
        private final List<Throwable> errors = new ArrayList<>();

        private Transformed(HopscopeInstrumentation instrumentation, ClassFiles library) {
            this.instrumentation = instrumentation;
            this.library = library;
            this.loaders = new LibraryLoaders(instrumentation.requiredClass(), instrumentation.requiredClassOfCopy(),
                    instrumentation.libraryPackage());
            this.loader = new ByteArrayClassLoader(ClassLoader.getPlatformClassLoader(), library.files,
                    ByteArrayClassLoader.PersistenceHandler.MANIFEST);
            AgentBuilder builder = new AgentBuilder.Default().with(new AgentBuilder.Listener.Adapter() {
                @Override
                public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                        Throwable throwable) {
                    errors.add(throwable);
                }
            });
            this.transformer = instrumentation.extend(builder, loaders).makeRaw();
        }

        static Transformed by(HopscopeInstrumentation instrumentation, ClassFiles library) {
            return new Transformed(instrumentation, library);
        }

        /** Whether advice was inlined into the class (some method matched, in a type that matched). */
        boolean transforms(String className) {
            try {
                byte[] result = transformer.transform(loader, className.replace('.', '/'), null, null,
                        library.files.get(className));
                assertThat(errors).as("errors transforming %s", className).isEmpty();
                // A matched type is rewritten even where no method matches: advised means it calls the bridge.
                return result != null && new String(result, StandardCharsets.ISO_8859_1)
                        .contains("io/hopscope/agent/bootstrap/Bridge");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        /** The copies AgentInfo would name, as AgentInstaller names them. */
        List<String> copiesFound() {
            return loaders.copiesFound().stream().sorted().map(instrumentation::copyName).toList();
        }
    }
}
