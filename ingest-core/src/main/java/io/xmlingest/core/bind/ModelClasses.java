package io.xmlingest.core.bind;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Loads record classes from {@code model.path} (a user's jar of generated classes) or, when it is
 * empty, from the class path. One loader per model, made once at start-up, with the application's
 * loader as parent so the model shares JAXB's own classes with the runtime.
 */
public final class ModelClasses {

    private final List<String> path;
    private final ClassLoader loader;

    private ModelClasses(List<String> path, ClassLoader loader) {
        this.path = path;
        this.loader = loader;
    }

    public static ModelClasses of(List<String> modelPath) {
        ClassLoader parent = ModelClasses.class.getClassLoader();
        if (modelPath.isEmpty()) {
            return new ModelClasses(modelPath, parent);
        }
        URL[] urls = new URL[modelPath.size()];
        for (int i = 0; i < urls.length; i++) {
            requireJarOrDirectory(modelPath.get(i));
            try {
                urls[i] = Path.of(modelPath.get(i)).toAbsolutePath().toUri().toURL();
            } catch (MalformedURLException e) {
                throw new ConfigException(IngestSettings.MODEL_PATH.key(), IngestSettings.MODEL_PATH.key() + ": "
                        + modelPath.get(i) + " is not a usable path: " + e.getMessage());
            }
        }
        return new ModelClasses(modelPath, new URLClassLoader("xmlingest-model", urls, parent));
    }

    // The class loader skips an entry it cannot open without a word, and the user would then be told
    // only that the class is missing; say which entry is broken instead.
    private static void requireJarOrDirectory(String entry) {
        Path file = Path.of(entry);
        if (Files.isDirectory(file)) {
            return;
        }
        try (JarFile jar = new JarFile(file.toFile())) {
            jar.size();
        } catch (IOException e) {
            throw new ConfigException(IngestSettings.MODEL_PATH.key(), IngestSettings.MODEL_PATH.key() + ": "
                    + file.toAbsolutePath() + " is neither a class directory nor a readable jar (" + e.getMessage() + ")");
        }
    }

    /** @throws ConfigException naming record.class (and where it was looked for) when the class cannot be loaded */
    public Class<?> load(String name) {
        Class<?> loaded;
        try {
            loaded = Class.forName(name, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            String where = path.isEmpty() ? "the class path (set " + IngestSettings.MODEL_PATH.key()
                    + " to a model jar)" : IngestSettings.MODEL_PATH.key() + " " + path + " or the class path";
            throw new ConfigException(IngestSettings.RECORD_CLASS.key(),
                    "record class " + name + " is not in " + where + " (" + e + ")");
        }
        // JAXB would map any public class by its defaults, and the mistake would surface as a puzzling record.key
        // error, or as every record rejected; a record class is one xjc (or a person) annotated.
        if (!annotatedForJaxb(loaded)) {
            boolean javax = java.util.Arrays.stream(loaded.getAnnotations())
                    .anyMatch(a -> a.annotationType().getName().startsWith("javax.xml.bind."));
            throw new ConfigException(IngestSettings.RECORD_CLASS.key(), "record class " + name
                    + " is not a JAXB class (neither it nor a class it extends has @XmlType or @XmlRootElement)"
                    + (javax ? "; its annotations are javax.xml.bind's (JAXB 2): compile the model for jakarta.xml.bind "
                    + "(model compile does)" : ": name the class xjc made for the record element (model compile makes "
                    + "one from an XSD)") + ", or " + IngestSettings.SCHEMALESS + " to convert the records without a model");
        }
        return loaded;
    }

    /** Whether the class or one it extends is annotated as JAXB maps it (the annotations are not inherited). */
    private static boolean annotatedForJaxb(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.isAnnotationPresent(jakarta.xml.bind.annotation.XmlType.class)
                    || c.isAnnotationPresent(jakarta.xml.bind.annotation.XmlRootElement.class)) {
                return true;
            }
        }
        return false;
    }
}
