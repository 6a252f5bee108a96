package io.xmlingest.core.jaxb;

import jakarta.xml.bind.annotation.XmlRegistry;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The object factories beside a model's classes that declare members of substitution groups.
 *
 * <p>xjc puts each namespace in a package of its own, with a factory of its own, and JAXB reads
 * a package's factory only when it meets one of that package's classes. A member declared in
 * another namespace than its head ({@code b:fax} standing for {@code a:channel}) lives in a
 * factory that nothing in the record's classes leads to, so a context built from the record
 * class does not know it, and a record holding one would be refused as having an unexpected
 * element, valid as it is. These factories are looked for where the model was loaded from: every
 * entry of the model's class loader when it has a list of them ({@code model.path}), else the
 * class path entry the class came from. Only factories that declare a member of some
 * substitution group are taken, so a model's unrelated packages stay out of its context.
 */
public final class SubstitutionFactories {

    private static final String FACTORY = "ObjectFactory.class";

    /**
     * Factory class names per class path entry (path, size and time, so a replaced jar is read
     * again). Names, not classes: classes held here would keep every model's class loader alive.
     */
    private static final Map<String, List<String>> NAMES = new ConcurrentHashMap<>();

    private SubstitutionFactories() {
    }

    /**
     * The factories that declare a member of a substitution group, found where {@code modelClass}
     * was loaded from and loaded by its loader, sorted by name; empty when there is none or the
     * class has no place on disk.
     */
    public static List<Class<?>> beside(Class<?> modelClass) {
        ClassLoader loader = modelClass.getClassLoader();
        if (loader == null) {
            return List.of();
        }
        Set<String> names = new TreeSet<>();
        for (Path entry : entriesOf(modelClass)) {
            names.addAll(factoryNames(entry));
        }
        List<Class<?>> found = new ArrayList<>();
        for (String name : names) {
            try {
                Class<?> c = Class.forName(name, false, loader);
                if (c.isAnnotationPresent(XmlRegistry.class) && ElementNames.declaresSubstitutes(c)) {
                    found.add(c);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // Shadowed or broken: such a factory declares nothing JAXB could use either.
            }
        }
        return List.copyOf(found);
    }

    private static Set<Path> entriesOf(Class<?> modelClass) {
        Set<Path> entries = new LinkedHashSet<>();
        if (modelClass.getClassLoader() instanceof URLClassLoader urls) {
            for (URL url : urls.getURLs()) {
                addFile(entries, url);
            }
        }
        CodeSource source = modelClass.getProtectionDomain().getCodeSource();
        if (source != null && source.getLocation() != null) {
            addFile(entries, source.getLocation());
        }
        return entries;
    }

    private static void addFile(Set<Path> entries, URL url) {
        if (!"file".equals(url.getProtocol())) {
            return;
        }
        try {
            entries.add(Path.of(url.toURI()).toAbsolutePath().normalize());
        } catch (URISyntaxException | IllegalArgumentException e) {
            // Not a path this process can read; classes from there are not looked through.
        }
    }

    private static List<String> factoryNames(Path entry) {
        try {
            if (Files.isDirectory(entry)) {
                // A directory can change under us (a build's output), so it is read each time: models
                // are built once at start-up.
                return inDirectory(entry);
            }
            if (!Files.isRegularFile(entry)) {
                return List.of();
            }
            String key = entry + "|" + Files.size(entry) + "|" + Files.getLastModifiedTime(entry).toMillis();
            return NAMES.computeIfAbsent(key, k -> inJar(entry));
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    private static List<String> inJar(Path jar) {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith("/" + FACTORY) && !name.startsWith("META-INF/")) {
                    names.add(className(name));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(names);
    }

    private static List<String> inDirectory(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName() != null && f.getFileName().toString().equals(FACTORY))
                    .map(f -> className(dir.relativize(f).toString().replace(File.separatorChar, '/')))
                    .filter(n -> n.indexOf('.') > 0)
                    .toList();
        }
    }

    private static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
