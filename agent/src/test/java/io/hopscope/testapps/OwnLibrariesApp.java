package io.hopscope.testapps;

import static net.bytebuddy.matcher.ElementMatchers.named;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.MethodDelegation;
import net.bytebuddy.utility.AsmClassReader;
import net.bytebuddy.utility.AsmClassWriter;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An application with its own Byte Buddy and Jackson, at other versions than the agent's: it serves
 * JSON (written by its Jackson) from the JDK's HttpServer on 127.0.0.1 and calls it COUNT times with
 * OkHttp's synchronous Call#execute, each call through an Interceptor class that its Byte Buddy
 * generates anew, in a class loader of its own, and that tags the request; it reads each answer with
 * its Jackson and checks the tag came back. Then it drops the generated classes and counts how many
 * of their loaders a full GC leaves alive.
 *
 * <p>On JDK 24 and later its Byte Buddy writes classes with the JDK's class file API (its
 * asmjdkbridge classes, a multi-release part of its jar), elsewhere with its own ASM.
 *
 * <p>Usage: OwnLibrariesApp COUNT
 */
public final class OwnLibrariesApp {

    /** The JSON body both ends share, read and written by the application's Jackson. */
    public record Greeting(String greeting, String tag, int n) {
    }

    private OwnLibrariesApp() {
    }

    public static void main(String[] args) {
        // The server's dispatcher is not a daemon thread: a failure must end the JVM all the same.
        System.exit(exitCode(args));
    }

    /** Makes the calls and returns the exit code: for LoaderApp, which runs it beside other groups. */
    public static int exitCode(String[] args) {
        try {
            run(Integer.parseInt(args[0]));
            return 0;
        } catch (Throwable t) {
            t.printStackTrace();
            return 1;
        }
    }

    private static void run(int count) throws Exception {
        ObjectMapper json = new ObjectMapper();
        System.out.println("jackson " + json.version() + " from " + source(ObjectMapper.class));
        System.out.println("byte-buddy from " + source(ByteBuddy.class));

        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/greeting", exchange -> {
            String n = exchange.getRequestURI().getQuery().substring("n=".length());
            byte[] body = json.writeValueAsBytes(new Greeting("hello",
                    exchange.getRequestHeaders().getFirst("X-Tag"), Integer.parseInt(n)));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/greeting?n=";

        // JDK 24+: the class file API only (the multi-release part of Byte Buddy's jar), so that a
        // missing or foreign bridge class fails here instead of falling back to ASM.
        ByteBuddy byteBuddy = Runtime.version().feature() >= 24
                ? new ByteBuddy().with(AsmClassReader.Factory.Default.CLASS_FILE_API_ONLY)
                        .with(AsmClassWriter.Factory.Default.CLASS_FILE_API_ONLY)
                : new ByteBuddy();
        OkHttpClient shared = new OkHttpClient();
        List<WeakReference<ClassLoader>> generatedLoaders = new ArrayList<>();
        int ok = 0;
        for (int i = 1; i <= count; i++) {
            if (call(byteBuddy, shared, json, base, i, generatedLoaders)) {
                ok++;
            }
        }
        System.out.println("responses ok: " + ok + " of " + count);
        System.out.println("json round trip: " + json.writeValueAsString(
                json.readValue("{\"a\":[1,2,{\"b\":\"c\"}]}", Map.class)));
        server.stop(0);
        shared.dispatcher().executorService().shutdown();
        shared.connectionPool().evictAll();

        long alive = generatedLoaders.size();
        for (int attempt = 0; attempt < 10 && alive > 0; attempt++) {
            System.gc();
            Thread.sleep(50);
            alive = generatedLoaders.stream().filter(r -> r.get() != null).count();
        }
        System.out.println("generated class loaders alive after gc: " + alive + " of " + generatedLoaders.size());
    }

    /**
     * One call through a newly generated interceptor; in a method of its own, so that no local
     * variable of the caller's frame keeps the generated class alive afterwards.
     */
    private static boolean call(ByteBuddy byteBuddy, OkHttpClient shared, ObjectMapper json, String base, int i,
            List<WeakReference<ClassLoader>> generatedLoaders) throws Exception {
        Class<? extends Interceptor> type = byteBuddy.subclass(Interceptor.class)
                .name("io.hopscope.testapps.GeneratedTagInterceptor")
                .method(named("intercept")).intercept(MethodDelegation.to(Tagging.class))
                .make()
                .load(OwnLibrariesApp.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
                .getLoaded();
        generatedLoaders.add(new WeakReference<>(type.getClassLoader()));
        OkHttpClient client = shared.newBuilder().addInterceptor(type.getConstructor().newInstance()).build();
        try (Response response = client.newCall(new Request.Builder().url(base + i).build()).execute()) {
            Greeting greeting = json.readValue(response.body().string(), Greeting.class);
            if (response.code() == 200 && greeting.equals(new Greeting("hello", Tagging.TAG, i))) {
                return true;
            }
            System.out.println("bad response " + i + ": " + response.code() + " " + greeting);
            return false;
        }
    }

    private static String source(Class<?> type) {
        return String.valueOf(type.getProtectionDomain().getCodeSource().getLocation());
    }

    /** What the generated interceptor delegates to: tags the request. */
    public static final class Tagging {
        static final String TAG = "tagged-by-byte-buddy";

        private Tagging() {
        }

        public static Response intercept(Interceptor.Chain chain) throws IOException {
            return chain.proceed(chain.request().newBuilder().header("X-Tag", TAG).build());
        }
    }
}
