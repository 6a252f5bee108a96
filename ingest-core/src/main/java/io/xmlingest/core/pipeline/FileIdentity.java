package io.xmlingest.core.pipeline;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A file's identity is its content, not its name: the SHA-256 of its bytes. The same export
 * dropped twice under two names is one file; a changed file under an old name is a new one.
 */
public final class FileIdentity {
    private FileIdentity() {
    }

    public static String sha256(Path file) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (channel.read(buffer) >= 0) {
                buffer.flip();
                digest.update(buffer);
                buffer.clear();
            }
        } catch (IOException e) {
            throw FileFailedException.unreadable(file.toString(), e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
