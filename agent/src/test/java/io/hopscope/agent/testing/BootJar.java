package io.hopscope.agent.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.springframework.boot.loader.launch.JarLauncher;

/**
 * An executable jar laid out as Spring Boot's {@code repackage} lays one out: Spring Boot's loader
 * classes (the real spring-boot-loader jar) at the root, the application's classes in
 * BOOT-INF/classes, its libraries stored (uncompressed) as nested jars in BOOT-INF/lib, listed in
 * BOOT-INF/classpath.idx; {@code java -jar} runs Spring Boot's JarLauncher, which loads the
 * application with its LaunchedClassLoader from the nested jars.
 */
public final class BootJar {

    private record ClassRoot(Path root, Predicate<String> filter) {
    }

    private final String startClass;
    private final List<ClassRoot> classRoots = new ArrayList<>();
    private final List<Path> libraries = new ArrayList<>();

    public BootJar(String startClass) {
        this.startClass = startClass;
    }

    /** Adds the files under root whose relative path ('/'-separated) the filter accepts, to BOOT-INF/classes. */
    public BootJar classes(Path root, Predicate<String> filter) {
        classRoots.add(new ClassRoot(root, filter));
        return this;
    }

    /** Adds library jars to BOOT-INF/lib. */
    public BootJar libraries(List<Path> jars) {
        libraries.addAll(jars);
        return this;
    }

    public Path write(Path jar) throws IOException {
        Path loaderJar = loaderJar();
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, JarLauncher.class.getName());
        main.putValue("Start-Class", startClass);
        main.putValue("Spring-Boot-Classes", "BOOT-INF/classes/");
        main.putValue("Spring-Boot-Lib", "BOOT-INF/lib/");
        main.putValue("Spring-Boot-Classpath-Index", "BOOT-INF/classpath.idx");
        try (JarFile loader = new JarFile(loaderJar.toFile())) {
            main.putValue("Spring-Boot-Version", loader.getManifest().getMainAttributes().getValue("Implementation-Version"));
        }
        Set<String> written = new HashSet<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            written.add("META-INF/");
            written.add(JarFile.MANIFEST_NAME);
            try (JarFile loader = new JarFile(loaderJar.toFile())) {
                for (JarEntry entry : loader.stream().toList()) {
                    if (entry.isDirectory() || entry.getName().equals(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    try (InputStream in = loader.getInputStream(entry)) {
                        deflated(out, written, entry.getName(), in.readAllBytes());
                    }
                }
            }
            for (ClassRoot classes : classRoots) {
                try (Stream<Path> files = Files.walk(classes.root())) {
                    for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                        String relative = classes.root().relativize(file).toString().replace('\\', '/');
                        if (classes.filter().test(relative)) {
                            deflated(out, written, "BOOT-INF/classes/" + relative, Files.readAllBytes(file));
                        }
                    }
                }
            }
            StringBuilder index = new StringBuilder();
            for (Path library : libraries) {
                String name = "BOOT-INF/lib/" + library.getFileName();
                stored(out, written, name, Files.readAllBytes(library));
                index.append("- \"").append(name).append("\"\n");
            }
            deflated(out, written, "BOOT-INF/classpath.idx", index.toString().getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    /** The spring-boot-loader jar on this test's class path. */
    private static Path loaderJar() throws IOException {
        try {
            return Path.of(JarLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    private static void deflated(JarOutputStream out, Set<String> written, String name, byte[] bytes) throws IOException {
        directories(out, written, name);
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }

    /** Nested jars must be stored: Spring Boot reads them in place, without inflating the outer jar. */
    private static void stored(JarOutputStream out, Set<String> written, String name, byte[] bytes) throws IOException {
        directories(out, written, name);
        JarEntry entry = new JarEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(bytes.length);
        entry.setCompressedSize(bytes.length);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        entry.setCrc(crc.getValue());
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }

    /** Writes the entry's parent directories once each, as jar tools do. */
    private static void directories(JarOutputStream out, Set<String> written, String name) throws IOException {
        for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
            String directory = name.substring(0, slash + 1);
            if (written.add(directory)) {
                out.putNextEntry(new JarEntry(directory));
                out.closeEntry();
            }
        }
        if (!written.add(name)) {
            throw new IOException("duplicate entry " + name);
        }
    }
}
