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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.namespace.QName;

/**
 * The object factories beside a model's classes that a JAXB context of its records needs and JAXB
 * would not find by itself.
 *
 * <p>xjc puts each namespace in a package of its own, with a factory of its own, and JAXB reads
 * a package's factory only when it meets one of that package's classes. Two kinds of element are
 * declared only in a factory that nothing in the record's classes leads to:
 * <ul>
 * <li>a member of a substitution group declared in another namespace than its head ({@code b:fax}
 *     standing for {@code a:channel}): without its factory, a record holding one would be refused
 *     as having an unexpected element, valid as it is;
 * <li>an element of another namespace a record refers to, where xjc binds the reference as an
 *     element reference ({@code ref="b:email"} in a repeated choice, or beside a local element of
 *     the same name, held in a {@code content} list): without its factory, JAXB refuses the record
 *     class itself ("no ObjectFactory with an @XmlElementDecl for the element").
 * </ul>
 *
 * <p>Factories are looked for where the model was loaded from: every entry of the model's class
 * loader when it has a list of them ({@code model.path}), else the class path entry the class
 * came from. Of two factories declaring the same element, the class's own package's counts, else
 * the first on that path (two copies of a schema cannot share a context). {@link ElementNames} names the members of a head
 * from {@link #beside}; a record model adds to its context the factories {@link #forContext}
 * picks, those declaring members of heads its records can hold or elements they refer to, so both
 * see the same members of every such head, and factories unrelated to the records stay out of the
 * context.
 */
public final class SubstitutionFactories {

    private static final String FACTORY = "ObjectFactory.class";

    /**
     * Factory class names per class path entry: a jar by path, size and time, so a replaced jar is
     * read again; a directory by path and loader, read once per model. Names, not classes: classes
     * held here would keep every model's class loader alive.
     */
    private static final Map<String, List<String>> NAMES = new ConcurrentHashMap<>();

    private SubstitutionFactories() {
    }

    /**
     * The factories found where {@code modelClass} was loaded from, loaded by its loader, that
     * declare a member of a substitution group and are not shadowed: no element they declare is
     * declared by the class's own package's factory or an earlier factory on the path; in path
     * order.
     */
    public static List<Class<?>> beside(Class<?> modelClass) {
        return BESIDE.get(modelClass).substitutes();
    }

    /** The factories beside a model's class that are not shadowed, and those of them that declare substitutes. */
    private record Found(List<Class<?>> unshadowed, List<Class<?>> substitutes) {
    }

    // Asked for each element reference of each class; kept on the class itself, so nothing here holds a
    // model's classes beyond the life of its loader.
    private static final ClassValue<Found> BESIDE = new ClassValue<>() {
        @Override
        protected Found computeValue(Class<?> type) {
            return find(type);
        }
    };

    private static Found find(Class<?> modelClass) {
        ClassLoader loader = modelClass.getClassLoader();
        if (loader == null) {
            return new Found(List.of(), List.of());
        }
        // The class's own package's factory is in any context that holds the class: it comes first.
        Class<?> own = load(modelClass.getPackageName() + ".ObjectFactory", loader);
        Set<QName> taken = new HashSet<>(own == null ? List.of() : ObjectFactories.declaredElements(own));
        List<Class<?>> unshadowed = new ArrayList<>();
        for (Path entry : entriesOf(modelClass)) {
            for (String name : factoryNames(entry, loader)) {
                Class<?> factory = load(name, loader);
                if (factory == null || factory == own || unshadowed.contains(factory)) {
                    continue;
                }
                List<QName> declared = ObjectFactories.declaredElements(factory);
                // A shadowed factory claims nothing, so a copy ahead of the model on the path hides no part of it.
                if (declared.stream().noneMatch(taken::contains)) {
                    taken.addAll(declared);
                    unshadowed.add(factory);
                }
            }
        }
        return new Found(List.copyOf(unshadowed),
                unshadowed.stream().filter(ObjectFactories::declaresSubstitutes).toList());
    }

    /**
     * The factories beside the record classes that declare a member of a head the records can hold,
     * or an element they refer to: a head or element some class reachable from them refers to,
     * followed through the declared elements' own types and members of members.
     */
    public static List<Class<?>> forContext(Collection<Class<?>> recordClasses) {
        LinkedHashSet<Class<?>> candidates = new LinkedHashSet<>();
        recordClasses.forEach(c -> candidates.addAll(BESIDE.get(c).unshadowed()));
        if (candidates.isEmpty()) {
            return List.of();
        }
        // Every element a reachable class refers to, heads of substitution groups among them.
        Set<QName> referred = new HashSet<>();
        Set<Class<?>> seen = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(recordClasses);
        List<Class<?>> chosen = new ArrayList<>();
        boolean grew = true;
        while (grew) {
            while (!todo.isEmpty()) {
                Class<?> c = todo.pop();
                if (seen.add(c)) {
                    ElementNames.references(c, referred, todo);
                }
            }
            grew = false;
            for (Class<?> factory : candidates) {
                for (ObjectFactories.ElementDecl d : ObjectFactories.declarations(factory)) {
                    boolean member = d.head() != null && referred.contains(d.head());
                    boolean referredTo = d.global() && referred.contains(d.name());
                    if (!member && !referredTo) {
                        continue;
                    }
                    if (!chosen.contains(factory)) {
                        chosen.add(factory);
                    }
                    // A member may head members of its own, and an element's type may hold more references.
                    grew |= referred.add(d.name());
                    if (!seen.contains(d.type())) {
                        todo.add(d.type());
                        grew = true;
                    }
                }
            }
        }
        return List.copyOf(chosen);
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            Class<?> c = Class.forName(name, false, loader);
            return c.isAnnotationPresent(XmlRegistry.class) ? c : null;
        } catch (ClassNotFoundException | LinkageError e) {
            // Broken or out of reach: such a factory declares nothing JAXB could use either.
            return null;
        }
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

    private static List<String> factoryNames(Path entry, ClassLoader loader) {
        try {
            if (Files.isDirectory(entry)) {
                String key = entry + "|" + System.identityHashCode(loader);
                return NAMES.computeIfAbsent(key, k -> inDirectory(entry));
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
        return names.stream().sorted().toList();
    }

    private static List<String> inDirectory(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName() != null && f.getFileName().toString().equals(FACTORY))
                    .map(f -> className(dir.relativize(f).toString().replace(File.separatorChar, '/')))
                    .filter(n -> n.indexOf('.') > 0)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }
}
