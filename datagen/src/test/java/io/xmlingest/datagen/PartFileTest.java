package io.xmlingest.datagen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file written beside and renamed: complete, or not there at all, and no FILE.part either way. */
class PartFileTest {

    @TempDir
    Path dir;

    @Test
    void aCompleteWriteIsRenamed() throws IOException {
        Path file = dir.resolve("a.xml");
        int result = PartFile.write(file, stream -> {
            stream.write("<a/>".getBytes());
            return 7;
        });
        assertThat(result).isEqualTo(7);
        assertThat(file).hasContent("<a/>");
        assertThat(dir.resolve("a.xml.part")).doesNotExist();
    }

    /** A record factory or JAXB failing mid-way left the part written so far behind. */
    @Test
    void aWriteThatFailsMidWayDeletesItsPart() throws IOException {
        Path file = dir.resolve("a.xml");
        Files.writeString(file, "the previous run's");
        assertThatThrownBy(() -> PartFile.write(file, stream -> {
            stream.write(new byte[1 << 16]);
            throw new IllegalStateException("PODAM gave up");
        })).isInstanceOf(IllegalStateException.class).hasMessage("PODAM gave up");
        assertThat(dir.resolve("a.xml.part")).doesNotExist();
        assertThat(file).hasContent("the previous run's");
    }

    /** Complete but not renamed (the target is a directory that is not empty): the command fails, so no part stays. */
    @Test
    void aRenameThatFailsDeletesThePart() throws IOException {
        Path file = Files.createDirectory(dir.resolve("a.xml"));
        Files.writeString(file.resolve("inside"), "");
        assertThatThrownBy(() -> PartFile.write(file, stream -> 0)).isInstanceOf(IOException.class);
        assertThat(dir.resolve("a.xml.part")).doesNotExist();
        assertThat(file.resolve("inside")).exists();
    }

    /** A FILE.part that could not be opened is someone else's (here a directory): it stays. */
    @Test
    void aPartThatCannotBeOpenedIsLeftAlone() throws IOException {
        Path file = dir.resolve("a.xml");
        Files.createDirectory(dir.resolve("a.xml.part"));
        assertThatThrownBy(() -> PartFile.write(file, stream -> 0)).isInstanceOf(IOException.class);
        assertThat(dir.resolve("a.xml.part")).isDirectory();
    }
}
