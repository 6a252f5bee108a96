package io.xmlingest.core.split;

import java.io.IOException;

/**
 * The file's bytes are not valid in its encoding. It is an {@link IOException} so that it passes
 * through the parser reading a {@link ByteTrackingReader}; the byte offset is exact, so the
 * message can point a user (or a hex editor) at the first bad byte.
 */
public final class InvalidEncodingException extends IOException {

    private final long byteOffset;

    public InvalidEncodingException(String message, long byteOffset) {
        super(message);
        this.byteOffset = byteOffset;
    }

    /** Absolute offset in the file of the first byte that could not be decoded. */
    public long byteOffset() {
        return byteOffset;
    }
}
