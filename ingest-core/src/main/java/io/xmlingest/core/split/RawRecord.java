package io.xmlingest.core.split;

/**
 * A record's bytes as they are in the file, for a dead letter: whoever reads it can see exactly
 * what was refused.
 *
 * @param byteOffset offset of the record's start tag, or -1 if unknown
 * @param byteLength length through the end of its end tag, or -1 if unknown
 * @param xml        the record's text, or null when it is longer than asked for or could not be read
 */
public record RawRecord(long byteOffset, long byteLength, String xml) {

    /** A record's place in the file, read back only when a dead letter needs it; safe from any thread. */
    public interface Source {
        RawRecord read(long maxBytes);

        /** How many characters the record spans in the file. */
        long chars();

        Source NONE = new Source() {
            @Override
            public RawRecord read(long maxBytes) {
                return new RawRecord(-1, -1, null);
            }

            @Override
            public long chars() {
                return 0;
            }
        };
    }
}
