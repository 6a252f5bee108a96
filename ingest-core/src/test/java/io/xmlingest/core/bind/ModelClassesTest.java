package io.xmlingest.core.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelClassesTest {

    @TempDir
    Path dir;

    @Test
    void aFileThatIsNotAJarIsNamedInsteadOfSilentlySkipped() throws Exception {
        Path notAJar = Files.writeString(dir.resolve("model.jar"), "not a zip");

        assertThatThrownBy(() -> ModelClasses.of(List.of(notAJar.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("model.path")
                .hasMessageContaining(notAJar.toAbsolutePath().toString())
                .hasMessageContaining("neither a class directory nor a readable jar");
    }

    @Test
    void loadsAClassFromADirectoryAndNamesTheEntriesWhenOneIsMissing() throws Exception {
        Path src = Files.writeString(dir.resolve("Thing.java"),
                "package byo; @jakarta.xml.bind.annotation.XmlRootElement public class Thing {}");
        Path plain = Files.writeString(dir.resolve("Plain.java"), "package byo; public class Plain {}");
        Path sub = Files.writeString(dir.resolve("Sub.java"), "package byo; public class Sub extends Thing {}");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        String jaxbApi = Path.of(jakarta.xml.bind.annotation.XmlRootElement.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toString();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", jaxbApi, "-d", classes.toString(),
                src.toString(), plain.toString(), sub.toString());
        assertThat(rc).isZero();
        ModelClasses model = ModelClasses.of(List.of(classes.toString()));

        Class<?> thing = model.load("byo.Thing");

        assertThat(thing.getName()).isEqualTo("byo.Thing");
        assertThat(thing.getClassLoader()).isNotSameAs(ModelClasses.class.getClassLoader());
        assertThatThrownBy(() -> model.load("byo.Nope"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("record class byo.Nope is not in model.path")
                .hasMessageContaining(classes.toString());
        // JAXB would map it by its defaults, and the mistake would show as a puzzling record.key error.
        assertThatThrownBy(() -> model.load("byo.Plain"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.class")
                .hasMessageContaining("record class byo.Plain is not a JAXB class (neither it nor a class it extends has "
                        + "@XmlType or @XmlRootElement)");
        // Annotations are not inherited, but a subclass of a model class binds as its own type.
        assertThat(model.load("byo.Sub").getSuperclass().getName()).isEqualTo("byo.Thing");
    }
}
