package io.xmlingest.core.pipeline;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.split.CompressedInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;

/**
 * A file's identity is its content, not its name: the SHA-256 of its bytes (of a compressed
 * file, of its inflated bytes). The same export
 * dropped twice under two names is one file; a changed file under an old name is a new one.
 */
public final class FileIdentity {
    private FileIdentity() {
    }

    /**
     * The identity of what is ingested from the file: its SHA-256, or for a compressed file (gzip, zip)
     * the SHA-256 of its inflated content, inflated on the way into its copy beside it
     * ({@link CompressedInput#inflateBeside}), where reading it takes it up. The same XML dropped plain,
     * or compressed in any way, is then one file.
     *
     * @return null when asked to stop while inflating
     */
    public static String ofContent(Path file, String name, long decompressedMaxBytes, BooleanSupplier stop) {
        return ofContent(file, name, decompressedMaxBytes, stop, Long.MAX_VALUE);
    }

    /**
     * {@link #ofContent(Path, String, long, BooleanSupplier)} of the file's first {@code takenBytes} bytes, the size it
     * had when the caller looked: a file still being written grows meanwhile, and what it is read as must be what it
     * is identified by (see the splitter's end); a gzip file is inflated from those bytes alone.
     */
    public static String ofContent(Path file, String name, long decompressedMaxBytes, BooleanSupplier stop,
                                   long takenBytes) {
        return CompressedInput.isCompressed(file, name)
                ? CompressedInput.inflateBeside(file, name, decompressedMaxBytes, stop, newSha256(), takenBytes)
                : sha256(file, takenBytes);
    }

    /**
     * Inflates a compressed file into {@code copy} and returns the identity of its content,
     * hashed as it inflates rather than read again afterwards.
     */
    static String inflatedInto(Path gz, String name, Path copy, long decompressedMaxBytes, long takenBytes) {
        MessageDigest digest = newSha256();
        CompressedInput.inflate(gz, name, copy, decompressedMaxBytes, () -> false, digest, takenBytes);
        return HexFormat.of().formatHex(digest.digest());
    }

    public static String sha256(Path file) {
        return sha256(file, Long.MAX_VALUE);
    }

    /** The SHA-256 of the file's first {@code maxBytes} bytes (all of a shorter one). */
    public static String sha256(Path file, long maxBytes) {
        MessageDigest digest = newSha256();
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            for (long left = maxBytes; left > 0; ) {
                if (left < buffer.capacity()) {
                    buffer.limit((int) left);
                }
                int n = channel.read(buffer);
                if (n < 0) {
                    break;
                }
                left -= n;
                buffer.flip();
                digest.update(buffer);
                buffer.clear();
            }
        } catch (IOException e) {
            throw FileFailedException.unreadable(file.toString(), e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
