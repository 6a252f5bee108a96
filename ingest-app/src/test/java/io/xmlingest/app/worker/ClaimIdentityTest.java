package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.pipeline.FileIdentity;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaimIdentityTest {

    @TempDir
    Path dir;

    private final List<Path> hashed = new ArrayList<>();
    private final ClaimIdentity identities = new ClaimIdentity((file, bytes) -> {
        hashed.add(file);
        return FileIdentity.sha256(file, bytes);
    });

    private Path file(String content) throws IOException {
        return Files.writeString(dir.resolve("a.xml"), content);
    }

    @Test
    void aFileUntouchedSinceItWasHashedKeepsItsRecordedIdentityWithoutBeingRead() throws IOException {
        Path a = file("<persons><person id='1'/></persons>");
        RecordedIdentity first = identities.identify(a, Optional.empty());

        RecordedIdentity again = identities.identify(a, Optional.of(first));

        assertThat(hashed).containsExactly(a);
        assertThat(again).isEqualTo(first);
        assertThat(first.sha256()).isEqualTo(FileIdentity.sha256(a));
        assertThat(first.size()).isEqualTo(Files.size(a));
        assertThat(first.modified()).isEqualTo(Files.getLastModifiedTime(a));
    }

    /** A file still being written grows while it is hashed: the hash covers the size recorded, no more. */
    @Test
    void theHashCoversTheSizeTheFileHadWhenItsAttributesWereRead() throws IOException {
        Path a = file("<persons><person id='1'/></persons>");
        long[] asked = new long[1];
        RecordedIdentity identity = new ClaimIdentity((file, bytes) -> {
            asked[0] = bytes;
            try {
                Files.writeString(file, "<!-- more -->", java.nio.file.StandardOpenOption.APPEND); // the writer goes on
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return FileIdentity.sha256(file, bytes);
        }).identify(a, Optional.empty());

        assertThat(asked[0]).isEqualTo(identity.size()).isEqualTo("<persons><person id='1'/></persons>".length());
        assertThat(identity.sha256()).isEqualTo(FileIdentity.sha256(a, identity.size())).isNotEqualTo(FileIdentity.sha256(a));
    }

    @Test
    void aHashStoppedOnRequestGivesNoIdentity() throws IOException {
        Path a = file("<persons/>");
        // A compressed file is inflated for its identity; a stop request ends that with no hash.
        assertThat(new ClaimIdentity((file, bytes) -> null).identify(a, Optional.empty())).isNull();
    }

    @Test
    void aFileRewrittenWithTheSameSizeIsReadAgainAndShowsItsNewContent() throws IOException {
        Path a = file("<persons><person id='1'/></persons>");
        RecordedIdentity first = identities.identify(a, Optional.empty());
        try (RandomAccessFile raf = new RandomAccessFile(a.toFile(), "rw")) {
            raf.seek(21); // the 1 of id='1'
            raf.write('2');
        }
        // The write's own time stamp may fall in the same clock tick; the test must not depend on it.
        Files.setLastModifiedTime(a, FileTime.fromMillis(first.modified().toMillis() + 1000));

        RecordedIdentity now = identities.identify(a, Optional.of(first));

        assertThat(hashed).containsExactly(a, a);
        assertThat(now.size()).isEqualTo(first.size());
        assertThat(now.sha256()).isNotEqualTo(first.sha256());
    }

    @Test
    void aFileThatGrewIsReadAgainEvenWithItsOldModificationTimeRestored() throws IOException {
        Path a = file("<persons><person id='1'/></persons>");
        RecordedIdentity first = identities.identify(a, Optional.empty());
        Files.writeString(a, "<persons><person id='1'/><person id='2'/></persons>");
        Files.setLastModifiedTime(a, first.modified());

        RecordedIdentity now = identities.identify(a, Optional.of(first));

        assertThat(hashed).containsExactly(a, a);
        assertThat(now.sha256()).isNotEqualTo(first.sha256());
    }

    @Test
    void aFileOnlyTouchedIsReadAgainAndKeepsItsHash() throws IOException {
        Path a = file("<persons/>");
        RecordedIdentity first = identities.identify(a, Optional.empty());
        Files.setLastModifiedTime(a, FileTime.fromMillis(first.modified().toMillis() + 1000));

        RecordedIdentity now = identities.identify(a, Optional.of(first));

        assertThat(hashed).containsExactly(a, a);
        assertThat(now.sha256()).isEqualTo(first.sha256());
        assertThat(now).isNotEqualTo(first);
    }

    @Test
    void aRecordedHashWithoutSizeAndTimeIsNeverTrusted() throws IOException {
        Path a = file("<persons/>");

        RecordedIdentity now = identities.identify(a, Optional.of(RecordedIdentity.hashOnly("0".repeat(64))));

        assertThat(hashed).containsExactly(a);
        assertThat(now.sha256()).isEqualTo(FileIdentity.sha256(a));
    }

    @Test
    void aFileThatIsGoneFailsWithItsName() {
        Path gone = dir.resolve("gone.xml");

        assertThatThrownBy(() -> identities.identify(gone, Optional.empty()))
                .isInstanceOf(FileFailedException.class).hasMessageContaining("gone.xml");
        assertThat(hashed).isEmpty();
    }

    @Test
    void theRecordReadsBackAsWrittenAndOlderOrDamagedRecordsAreNeverTrustedBlindly() {
        RecordedIdentity full = new RecordedIdentity("ab".repeat(32), 413_182_603,
                FileTime.from(java.time.Instant.parse("2026-11-23T10:59:23.609397126Z")));

        assertThat(RecordedIdentity.decode(full.encode())).isEqualTo(full);
        assertThat(RecordedIdentity.decode("ab".repeat(32) + "\n")).isEqualTo(RecordedIdentity.hashOnly("ab".repeat(32)));
        assertThat(RecordedIdentity.decode("sha256=" + "ab".repeat(32) + "\nsize=12x\nmodified=\n"))
                .isEqualTo(RecordedIdentity.hashOnly("ab".repeat(32)));
    }
}
