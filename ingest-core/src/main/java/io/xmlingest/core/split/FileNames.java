package io.xmlingest.core.split;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names made from a file's name (its report, sidecar, inflated copy) within a byte budget. File
 * systems count a name's bytes (255 on ext4, xfs, btrfs and tmpfs), not its characters: a name of
 * 84 Chinese characters already takes 252, and a cut through the middle of an emoji is no name at all.
 */
public final class FileNames {
    /** Most bytes in a file name on the usual Linux file systems. */
    public static final int NAME_MAX = 255;

    private FileNames() {
    }

    /**
     * {@code base + suffix} when it takes at most {@code maxBytes} in UTF-8; otherwise {@code base}
     * cut on a character boundary and marked with {@code ~} and 12 hex digits of a hash of the
     * whole of it, so a name derived from a long one is the same every time it is made, and two
     * long names that begin alike still differ.
     */
    public static String fit(String base, String suffix, int maxBytes) {
        String whole = base + suffix;
        if (utf8Length(whole) <= maxBytes) {
            return whole;
        }
        String mark = "~" + sha256(base).substring(0, 12);
        int room = maxBytes - utf8Length(mark + suffix);
        StringBuilder cut = new StringBuilder();
        int bytes = 0;
        for (int i = 0; i < base.length(); ) {
            int cp = base.codePointAt(i);
            int n = utf8Length(new String(Character.toChars(cp)));
            if (bytes + n > room) {
                break;
            }
            cut.appendCodePoint(cp);
            bytes += n;
            i += Character.charCount(cp);
        }
        return cut + mark + suffix;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
