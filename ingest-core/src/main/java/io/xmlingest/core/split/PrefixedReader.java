package io.xmlingest.core.split;

import java.io.IOException;
import java.io.Reader;

/** Reads a fixed text, then another reader: how a resumed file gets back the context it skipped. */
final class PrefixedReader extends Reader {

    private final String prefix;
    private final Reader rest;
    private int at;

    PrefixedReader(String prefix, Reader rest) {
        this.prefix = prefix;
        this.rest = rest;
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
        if (at < prefix.length()) {
            int n = Math.min(length, prefix.length() - at);
            prefix.getChars(at, at + n, buffer, offset);
            at += n;
            return n;
        }
        return rest.read(buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
        rest.close();
    }
}
