package io.xmlingest.core.split;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.IoProblems;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gzip-compressed input, told by its first two bytes, not by its name. The splitter needs to seek:
 * to resume at a checkpoint's byte offset, to read a rejected record back for its dead letter, to
 * cut a file into shards. A gzip stream cannot seek, so such a file is inflated into a plain copy
 * once, and the copy is what is read; byte offsets are the copy's.
 */
public final class GzipInput {

    private static final Logger LOG = LoggerFactory.getLogger(GzipInput.class);
    private static final int BUFFER = 64 * 1024;

    private GzipInput() {
    }

    /** Whether the file begins as a gzip member does; no XML document begins with byte 0x1f. */
    public static boolean isGzip(Path file, String name) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
    }

    /**
     * Where the worker keeps a compressed file's plain copy: beside it, hidden, and named for its
     * content, so that a copy left behind by a crash is never taken for another content's.
     */
    public static Path copyBeside(Path file, String fileId) {
        return file.resolveSibling("." + file.getFileName() + "." + fileId.substring(0, Math.min(16, fileId.length()))
                + ".inflated");
    }

    /**
     * Inflates {@code gz} into {@code copy}. It is written under a hidden part name beside it and
     * renamed when whole, so a {@code copy} that exists is complete. Members written one after
     * another (pigz, {@code cat a.gz b.gz}) are read as one stream.
     *
     * @param maxBytes the most the copy may hold ({@code file.gzip.max.bytes})
     * @return the copy's size in bytes
     */
    public static long inflate(Path gz, String name, Path copy, long maxBytes) {
        Path part = copy.resolveSibling("." + copy.getFileName() + ".part");
        long t0 = System.nanoTime();
        long written = 0;
        CountingInputStream compressed = null;
        try (InputStream file = Files.newInputStream(gz)) {
            // The compressed bytes taken so far, for an error's position (to within the inflater's read-ahead).
            compressed = new CountingInputStream(new BufferedInputStream(file, BUFFER));
            try (GZIPInputStream in = new GZIPInputStream(compressed, BUFFER); OutputStream out = output(part, name)) {
                byte[] buffer = new byte[BUFFER];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    written += n;
                    if (written > maxBytes) {
                        throw new FileFailedException("the gzip-compressed file inflates to more than " + maxBytes
                                + " bytes (stopped at compressed byte "
                                + compressed.count() + " of " + Files.size(gz) + ")", ErrorLocation.ofFile(name),
                                IngestSettings.GZIP_MAX_BYTES.key(), null);
                    }
                    write(out, buffer, n, part, name);
                }
            }
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            LOG.info("inflated {} ({} bytes) to {} bytes in {} s", name, Files.size(gz), written,
                    String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
            return written;
        } catch (ZipException | EOFException e) {
            deleteQuietly(part);
            // EOFException: the stream ends inside a member (a file cut short in transfer).
            throw new FileFailedException("not a whole gzip file: " + (e instanceof EOFException
                    ? "it ends inside a compressed block" : e.getMessage()) + " (at compressed byte "
                    + (compressed == null ? 0 : compressed.count()) + ", after " + written + " inflated bytes)",
                    ErrorLocation.ofFile(name), null, e);
        } catch (CopyNotWritten e) {
            deleteQuietly(part);
            throw e.failure;
        } catch (IOException e) {
            deleteQuietly(part);
            throw FileFailedException.unreadable(name, e);
        } catch (RuntimeException e) {
            deleteQuietly(part);
            throw e;
        }
    }

    private static OutputStream output(Path part, String name) throws CopyNotWritten {
        try {
            return Files.newOutputStream(part);
        } catch (IOException e) {
            throw new CopyNotWritten(part, name, e);
        }
    }

    private static void write(OutputStream out, byte[] buffer, int n, Path part, String name) throws CopyNotWritten {
        try {
            out.write(buffer, 0, n);
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
            failure = new FileFailedException("cannot write the gzip-compressed file's inflated copy " + part + ": "
                    + IoProblems.why(e), ErrorLocation.ofFile(name), null, e);
        }
    }
}
