package io.xmlingest.core.split;

import java.nio.charset.Charset;

/**
 * How a file's bytes are to be decoded.
 *
 * @param charset   a charset with a fixed byte order (never plain UTF-16, which would guess it)
 * @param bomLength how many bytes of byte order mark precede the text: 0, 2 or 3
 * @param xml11     the XML declaration says version 1.1: its decoding normalizes more line ends
 *                  and refuses more raw characters (see {@link ByteTrackingReader})
 */
public record XmlEncoding(Charset charset, int bomLength, boolean xml11) {

    /** An XML 1.0 file's. */
    public XmlEncoding(Charset charset, int bomLength) {
        this(charset, bomLength, false);
    }

    XmlEncoding asXml11(boolean isXml11) {
        return isXml11 == xml11 ? this : new XmlEncoding(charset, bomLength, isXml11);
    }
}
