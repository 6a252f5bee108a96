package io.xmlingest.core.split;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IoProblems;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compressed input: a gzip-compressed file, or a zip archive of one file, told by its first bytes,
 * not by its name. The splitter needs to seek: to resume at a checkpoint's byte offset, to read a
 * rejected record back for its dead letter, to cut a file into shards. A compressed stream cannot
 * seek, so such a file is inflated into a plain copy once, and the copy is what is read; byte
 * offsets are the copy's.
 */
public final class CompressedInput {

    private static final Logger LOG = LoggerFactory.getLogger(CompressedInput.class);
    private static final int BUFFER = 64 * 1024;

    /** How a file is compressed. */
    public enum Format {
        GZIP("gzip-compressed file", "not a whole gzip file"),
        ZIP("zip archive", "not a readable zip archive");

        private final String noun;
        private final String fault;

        Format(String noun, String fault) {
            this.noun = noun;
            this.fault = fault;
        }

        /** What the file is, in words: "gzip-compressed file". */
        public String noun() {
            return noun;
        }
    }

    private CompressedInput() {
    }

    /**
     * How the file is compressed, by its first bytes: a gzip member's, or a zip archive's (a file's
     * local header, or the end record of an archive that holds nothing). No XML document begins
     * with either: it begins with '<', white space or a byte order mark.
     */
    public static Optional<Format> format(Path file, String name) {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(6);
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
        String other = otherCompression(head);
        if (other != null) {
            // Read as XML, such a file failed with a parse or UTF-8 error at its first byte, which does not say why.
            throw new FileFailedException("the file is " + other + "-compressed, which is not read: only gzip and zip "
                    + "are; decompress it, or compress it with gzip, and drop it again", ErrorLocation.ofFile(name), null,
                    null);
        }
        return format(head, head.length);
    }

    /** The name of a compression other than gzip and zip that the file's first bytes are the mark of, or null. */
    private static String otherCompression(byte[] h) {
        if (h.length >= 3 && h[0] == 'B' && h[1] == 'Z' && h[2] == 'h') {
            return "bzip2";
        }
        if (h.length >= 6 && (h[0] & 0xff) == 0xfd && h[1] == '7' && h[2] == 'z' && h[3] == 'X' && h[4] == 'Z' && h[5] == 0) {
            return "xz";
        }
        if (h.length >= 4 && (h[0] & 0xff) == 0x28 && (h[1] & 0xff) == 0xb5 && (h[2] & 0xff) == 0x2f
                && (h[3] & 0xff) == 0xfd) {
            return "zstd";
        }
        if (h.length >= 6 && h[0] == '7' && h[1] == 'z' && (h[2] & 0xff) == 0xbc && (h[3] & 0xff) == 0xaf
                && h[4] == 0x27 && h[5] == 0x1c) {
            return "7z";
        }
        return null;
    }

    private static Optional<Format> format(byte[] head, int n) {
        if (n >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return Optional.of(Format.GZIP);
        }
        if (n >= 4 && head[0] == 'P' && head[1] == 'K' && (head[2] == 3 && head[3] == 4 || head[2] == 5 && head[3] == 6)) {
            return Optional.of(Format.ZIP);
        }
        return Optional.empty();
    }

    /**
     * A compressed file that holds another (a zip of a .gz, say) would be read as XML and fail with
     * a parse error at byte 0 of its copy; it fails here instead, saying what it holds.
     */
    private static void refuseNested(Format outer, byte[] head, int n, String name) {
        Optional<Format> inner = format(head, n);
        if (inner.isPresent()) {
            throw new FileFailedException("the " + outer.noun + " holds a " + inner.get().noun + ", compressed twice, "
                    + "which is not read: decompress it once and drop what that gives", ErrorLocation.ofFile(name), null,
                    null);
        }
    }

    /** Whether the file is compressed in a format {@link #format} knows. */
    public static boolean isCompressed(Path file, String name) {
        return format(file, name).isPresent();
    }

    /**
     * Where the worker keeps a compressed file's plain copy: beside it, hidden, and named for its
     * content, so that a copy left behind by a crash is never taken for another content's. A long
     * name is cut, so the copy's name stays within the file system's limit where the file's did.
     */
    public static Path copyBeside(Path file, String fileId) {
        return file.resolveSibling(copyPrefix(file) + fileId.substring(0, Math.min(16, fileId.length())) + COPY);
    }

    /**
     * The size of the plain copy beside a compressed file, which is its inflated size; -1 when there is
     * no copy (a plain file has none). The file itself is not read: it may not be in place yet, or
     * may have moved on.
     */
    public static long copySize(Path file, String fileId) {
        try {
            return Files.size(copyBeside(file, fileId));
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Deletes every copy beside {@code file}, and any part of one a crash left: whatever content
     * they were made from, they are of no use once the file moves on.
     */
    public static void deleteCopies(Path file) throws IOException {
        String prefix = copyPrefix(file);
        Path dir = file.toAbsolutePath().getParent();
        try (java.nio.file.DirectoryStream<Path> copies = Files.newDirectoryStream(dir, p -> {
            String n = p.getFileName().toString();
            return n.startsWith(prefix) && (n.endsWith(COPY) || n.endsWith(COPY + PART));
        })) {
            for (Path copy : copies) {
                Files.deleteIfExists(copy);
            }
        }
    }

    private static final String COPY = ".inflated";
    private static final String PART = ".part";

    /** The copy's name begins with at most 100 bytes of the file's, cut on a character boundary and marked. */
    private static String copyPrefix(Path file) {
        return "." + FileNames.fit(file.getFileName().toString(), "", 100) + ".";
    }

    /**
     * Inflates {@code gz}, a compressed file, into {@code copy}. It is written under a part name
     * beside it, forced to disk and renamed when whole, so a {@code copy} that exists is complete.
     * Gzip members written one after another (pigz, {@code cat a.gz b.gz}) are one stream; anything
     * else after a member fails the file, where the JDK's reader would stop there without a word.
     *
     * @param maxBytes the most the copy may hold ({@code file.decompressed.max.bytes})
     * @param stop     asked between buffers: a worker told to stop does not finish a long inflation first
     * @return the copy's size in bytes, or -1 when stopped (no copy is left then)
     */
    public static long inflate(Path gz, String name, Path copy, long maxBytes, BooleanSupplier stop) {
        return inflate(gz, name, copy, maxBytes, stop, null);
    }

    /** As above, each inflated byte also given to {@code digest} (may be null). */
    public static long inflate(Path gz, String name, Path copy, long maxBytes, BooleanSupplier stop,
                               MessageDigest digest) {
        return inflate(gz, name, copy, maxBytes, stop, digest, Long.MAX_VALUE);
    }

    /**
     * As above, reading no more than the first {@code end} bytes of {@code gz}: the size it had when it was taken. A
     * gzip file still being written grows meanwhile, and what is read must be what was taken (cut there, it breaks
     * off inside its stream, and fails). A zip archive is read as it is: its directory is at its end.
     */
    public static long inflate(Path gz, String name, Path copy, long maxBytes, BooleanSupplier stop,
                               MessageDigest digest, long end) {
        Path part = copy.resolveSibling(copy.getFileName() + PART);
        long written = inflateInto(gz, name, part, maxBytes, stop, digest, end);
        if (written >= 0) {
            rename(part, copy, name);
        }
        return written;
    }

    /**
     * Inflates {@code gz} into its copy beside it ({@link #copyBeside}), hashing what it inflates:
     * a compressed file's identity is its content's, so the same XML dropped plain, or compressed
     * again some other way, is the same file.
     *
     * @param sha256 a fresh SHA-256 digest, which the inflated content is hashed with
     * @return the inflated content's hash, in hex, or null when stopped (no copy is left then)
     */
    public static String inflateBeside(Path gz, String name, long maxBytes, BooleanSupplier stop, MessageDigest sha256) {
        return inflateBeside(gz, name, maxBytes, stop, sha256, Long.MAX_VALUE);
    }

    /** As above, reading no more than the first {@code end} bytes of a gzip file (see {@link #inflate}). */
    public static String inflateBeside(Path gz, String name, long maxBytes, BooleanSupplier stop, MessageDigest sha256,
                                       long end) {
        Path part = gz.resolveSibling(copyPrefix(gz) + "identifying" + COPY + PART);
        if (inflateInto(gz, name, part, maxBytes, stop, sha256, end) < 0) {
            return null;
        }
        String fileId = HexFormat.of().formatHex(sha256.digest());
        rename(part, copyBeside(gz, fileId), name);
        return fileId;
    }

    private static void rename(Path part, Path copy, String name) {
        try {
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(part);
            throw new CopyNotWritten(part, name, e).failure;
        }
    }

    /** Inflates into {@code part}, left whole and on disk; -1 when stopped, the part deleted. */
    private static long inflateInto(Path gz, String name, Path part, long maxBytes, BooleanSupplier stop,
                                    MessageDigest digest, long end) {
        long t0 = System.nanoTime();
        long size = Math.min(size(gz, name), end);
        Format format = format(gz, name).orElseThrow(() -> new FileFailedException(
                "it is neither gzip-compressed nor a zip archive any more", ErrorLocation.ofFile(name), null, null));
        LOG.info("inflating {} ({} bytes) to a plain copy", name, size);
        CompressedStream in = null;
        long written = 0;
        try (FileChannel out = output(part, name)) {
            in = format == Format.GZIP ? new GzipStream(java.nio.channels.Channels.newInputStream(
                    BoundedChannel.of(FileChannel.open(gz, StandardOpenOption.READ), size)), size) : new ZipStream(gz);
            if (in.declaredSize() > maxBytes) {
                throw new FileFailedException("the " + format.noun + " says it inflates to " + in.declaredSize()
                        + " bytes, more than " + maxBytes, ErrorLocation.ofFile(name),
                        IngestSettings.DECOMPRESSED_MAX_BYTES.key(), null);
            }
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer, 0, buffer.length)) > 0; ) {
                if (written == 0) {
                    refuseNested(format, buffer, n, name);
                }
                written += n;
                if (written > maxBytes) {
                    throw new FileFailedException("the " + format.noun + " inflates to more than " + maxBytes
                            + " bytes (stopped " + in.where() + ")",
                            ErrorLocation.ofFile(name), IngestSettings.DECOMPRESSED_MAX_BYTES.key(), null);
                }
                write(out, buffer, n, part, name);
                if (digest != null) {
                    digest.update(buffer, 0, n);
                }
                if (stop.getAsBoolean()) {
                    LOG.info("stopped inflating {} on request, after {} bytes", name, written);
                    out.close();
                    deleteQuietly(part);
                    return -1;
                }
            }
            if (written == 0) {
                throw new FileFailedException("the " + format.noun + " inflates to nothing: it holds no XML document",
                        ErrorLocation.ofFile(name), null, null);
            }
            force(out, part, name);
        } catch (ZipException | EOFException e) {
            deleteQuietly(part);
            // Before any byte is inflated, what is wrong is the archive's make-up: no place to name.
            throw new FileFailedException(format.fault + ": " + (e.getMessage() == null ? e.toString() : e.getMessage())
                    + (in == null ? "" : " (" + in.where() + ", after " + written + " inflated bytes)"),
                    ErrorLocation.ofFile(name), null, e);
        } catch (CopyNotWritten e) {
            deleteQuietly(part);
            throw e.failure;
        } catch (IOException e) {
            deleteQuietly(part);
            throw FileFailedException.unreadable(name, e);
        } catch (RuntimeException | Error e) {
            deleteQuietly(part);
            throw e;
        } finally {
            if (in != null) {
                in.close(); // the file, and the inflater's native memory
            }
        }
        LOG.info("inflated {} ({} bytes) to {} bytes in {} s", name, size, written,
                String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
        return written;
    }

    private static long size(Path gz, String name) {
        try {
            return Files.size(gz);
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
    }

    private static FileChannel output(Path part, String name) throws CopyNotWritten {
        try {
            Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
            // The input's content, readable by its owner only, as a temporary file is made.
            return part.getFileSystem().supportedFileAttributeViews().contains("posix")
                    ? FileChannel.open(part, options, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")))
                    : FileChannel.open(part, options);
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    private static void write(FileChannel out, byte[] buffer, int n, Path part, String name) throws CopyNotWritten {
        try {
            ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    /** On disk before the rename: after a power loss, a copy that is there must not be one whose data is not. */
    private static void force(FileChannel out, Path part, String name) throws CopyNotWritten {
        try {
            out.force(true);
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    private static void deleteQuietly(Path part) {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            // a part file is never read: the next inflation writes it afresh
        }
    }

    /** The copy could not be written (a full disk, say): not the file's fault, but it cannot be read without one. */
    private static final class CopyNotWritten extends IOException {
        final FileFailedException failure;

        CopyNotWritten(Path part, String name, IOException e) {
            super(e);
            failure = new FileFailedException("cannot write the compressed file's inflated copy " + part + ": "
                    + IoProblems.why(e), ErrorLocation.ofFile(name), null, e);
        }
    }
}
