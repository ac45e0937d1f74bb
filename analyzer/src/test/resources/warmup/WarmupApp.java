import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.ToolProvider;

/**
 * Run as a single-file program under the agent with {@code requests=WarmupApp#call}: its first
 * request loads {@code Leaf} in 500 class loaders of its own (500 classes the JVM offers the agent),
 * the 20 after it load nothing. {@code Leaf} is compiled before the first request, outside any.
 */
public class WarmupApp {

    static final int CLASSES = 500;
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("warmup-leaf");
        Path source = dir.resolve("Leaf.java");
        Files.writeString(source, "public class Leaf { public int x = 42; }");
        if (ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), source.toString()) != 0) {
            throw new IllegalStateException("cannot compile Leaf");
        }
        URL[] path = {dir.toUri().toURL()};
        call(path, CLASSES);
        for (int i = 0; i < 20; i++) {
            call(path, 0);
        }
    }

    /** The request boundary: loads Leaf in {@code loaders} fresh class loaders, then returns. */
    static int call(URL[] path, int loaders) throws Exception {
        int loaded = 0;
        for (int i = 0; i < loaders; i++) {
            try (URLClassLoader loader = new URLClassLoader(path, null)) {
                sink = loader.loadClass("Leaf").getDeclaredConstructor().newInstance();
                loaded++;
            }
        }
        sink = new byte[1024];
        return loaded;
    }
}
