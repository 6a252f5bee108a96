package io.xmlingest.core.split;

import java.nio.charset.Charset;

/**
 * How a file's bytes are to be decoded.
 *
 * @param charset   a charset with a fixed byte order (never plain UTF-16, which would guess it)
 * @param bomLength how many bytes of byte order mark precede the text: 0, 2 or 3
 */
public record XmlEncoding(Charset charset, int bomLength) {
}
