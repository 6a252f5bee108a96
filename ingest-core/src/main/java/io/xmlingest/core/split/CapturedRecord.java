package io.xmlingest.core.split;

import java.util.Arrays;
import javax.xml.namespace.NamespaceContext;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;

/**
 * One record's events, copied off the file's cursor so that another thread can bind them while
 * the cursor reads on. Only what a binder reads is kept: names, namespace declarations,
 * attributes and text; comments and processing instructions are dropped, as JAXB ignores them.
 *
 * <p>Positions cost nothing to keep: each event keeps its character offset from the record's
 * start, and a line and column are worked out only when someone asks, which a binder does only
 * to report an error (see {@link RecordText}).
 *
 * <p>Written by one thread, then read by one other after a safe hand-over (a queue); never changed
 * after {@link Builder#build}.
 */
public final class CapturedRecord {

    /** The record's raw text, read back from the file on demand; for dead letters and error positions. */
    public interface RecordText {
        /** The record's text as in the file, or null when it cannot be read back (the input was a stream). */
        String read();

        RecordText NONE = () -> null;
    }

    final int count;
    final byte[] type;
    final int[] charOffset;
    /** START_ELEMENT and END_ELEMENT: index of the name's first string in {@link #strings}. */
    final int[] name;
    /** START_ELEMENT: index in {@link #strings} of the first attribute, and how many (five strings each). */
    final int[] attributes;
    final int[] attributeCount;
    /** START_ELEMENT: index in {@link #strings} of the first namespace declaration, and how many (two strings each). */
    final int[] namespaces;
    final int[] namespaceCount;
    /** Text events: start in {@link #text} and length. */
    final int[] textStart;
    final int[] textLength;
    final String[] strings;
    final char[] text;
    final NamespaceContext outer;
    final boolean interned;
    final int line;
    final int column;
    final long byteOffset;
    final long byteLength;
    final RecordText source;
    /** The file is XML 1.1, whose raw text has line ends the parser was handed as line feeds. */
    private final boolean xml11;
    private final long size;

    private CapturedRecord(Builder b, int line, int column, long byteOffset, long byteLength, RecordText source,
                           boolean xml11) {
        this.count = b.count;
        this.type = b.type;
        this.charOffset = b.charOffset;
        this.name = b.name;
        this.attributes = b.attributes;
        this.attributeCount = b.attributeCount;
        this.namespaces = b.namespaces;
        this.namespaceCount = b.namespaceCount;
        this.textStart = b.textStart;
        this.textLength = b.textLength;
        this.strings = b.strings;
        this.text = b.text;
        this.outer = b.outer;
        this.interned = b.interned;
        this.line = line;
        this.column = column;
        this.byteOffset = byteOffset;
        this.byteLength = byteLength;
        this.source = source;
        this.xml11 = xml11;
        this.size = (long) b.textUsed * 2 + (long) b.stringCount * 8 + (long) b.count * 40;
    }

    /** A fresh reader over the events, positioned on the record's start tag. */
    public XMLStreamReader reader() {
        return new CapturedRecordReader(this);
    }

    /** Roughly the heap the copy holds, in bytes: for bounding what is in flight. */
    public long heapSize() {
        return size;
    }

    /**
     * The record's raw text, for a dead letter: null when it is longer than {@code maxBytes} or
     * cannot be read back.
     */
    public RawRecord raw(long maxBytes) {
        if (byteOffset < 0 || byteLength < 0 || byteLength > maxBytes) {
            return new RawRecord(byteOffset, byteLength, null);
        }
        return new RawRecord(byteOffset, byteLength, source.read());
    }

    /**
     * The file's line and column of an event, counted from the record's start over its raw text;
     * the record's own start when the text cannot be read back. Line ends are counted as the parser
     * counts them (see {@link LineCounter}).
     */
    int[] lineAndColumn(int event) {
        int target = event < 0 || event >= count ? 0 : charOffset[event];
        String raw = target == 0 ? null : source.read();
        if (raw == null) {
            return new int[] {line, column};
        }
        LineCounter lines = new LineCounter(line, column, xml11);
        int end = Math.min(target, raw.length());
        for (int i = 0; i < end; i++) {
            lines.add(raw.charAt(i));
        }
        return new int[] {lines.line(), lines.column()};
    }

    /** Collects one record's events in file order. */
    public static final class Builder {
        private int count;
        private byte[] type = new byte[64];
        private int[] charOffset = new int[64];
        private int[] name = new int[64];
        private int[] attributes = new int[64];
        private int[] attributeCount = new int[64];
        private int[] namespaces = new int[64];
        private int[] namespaceCount = new int[64];
        private int[] textStart = new int[64];
        private int[] textLength = new int[64];
        private String[] strings = new String[128];
        private int stringCount;
        private char[] text = new char[512];
        private int textUsed;
        private final NamespaceContext outer;
        private final boolean interned;

        /**
         * @param outer    the namespace bindings in scope around the record (declared by the elements that enclose it)
         * @param interned whether the source interns element and attribute names and namespace URIs
         */
        public Builder(NamespaceContext outer, boolean interned) {
            this.outer = outer;
            this.interned = interned;
        }

        /** Copies the reader's current event, if a binder could need it; {@code offset} is its distance from the record's start, in characters. */
        public void add(XMLStreamReader from, long offset) {
            int event = from.getEventType();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT -> {
                    int i = next(event, offset);
                    name[i] = addName(from.getLocalName(), from.getNamespaceURI(), from.getPrefix());
                    int ns = from.getNamespaceCount();
                    namespaces[i] = stringCount;
                    namespaceCount[i] = ns;
                    for (int n = 0; n < ns; n++) {
                        addString(from.getNamespacePrefix(n));
                        addString(from.getNamespaceURI(n));
                    }
                    int as = from.getAttributeCount();
                    attributes[i] = stringCount;
                    attributeCount[i] = as;
                    for (int a = 0; a < as; a++) {
                        addString(from.getAttributeNamespace(a));
                        addString(from.getAttributeLocalName(a));
                        addString(from.getAttributePrefix(a));
                        addString(from.getAttributeValue(a));
                        addString(from.getAttributeType(a));
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    int i = next(event, offset);
                    name[i] = addName(from.getLocalName(), from.getNamespaceURI(), from.getPrefix());
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    int i = next(event, offset);
                    int length = from.getTextLength();
                    if (textUsed + length > text.length) {
                        text = Arrays.copyOf(text, Math.max(text.length * 2, textUsed + length));
                    }
                    System.arraycopy(from.getTextCharacters(), from.getTextStart(), text, textUsed, length);
                    textStart[i] = textUsed;
                    textLength[i] = length;
                    textUsed += length;
                }
                default -> {
                    // comments, processing instructions: nothing a binder reads
                }
            }
        }

        /**
         * The finished copy; {@code byteOffset} and {@code byteLength} locate the record's raw text, -1 when
         * unknown; {@code xml11} says the file is XML 1.1, for counting the raw text's line ends.
         */
        public CapturedRecord build(int line, int column, long byteOffset, long byteLength, RecordText source,
                                    boolean xml11) {
            return new CapturedRecord(this, line, column, byteOffset, byteLength, source, xml11);
        }

        private int next(int event, long offset) {
            if (count == type.length) {
                int n = count * 2;
                type = Arrays.copyOf(type, n);
                charOffset = Arrays.copyOf(charOffset, n);
                name = Arrays.copyOf(name, n);
                attributes = Arrays.copyOf(attributes, n);
                attributeCount = Arrays.copyOf(attributeCount, n);
                namespaces = Arrays.copyOf(namespaces, n);
                namespaceCount = Arrays.copyOf(namespaceCount, n);
                textStart = Arrays.copyOf(textStart, n);
                textLength = Arrays.copyOf(textLength, n);
            }
            type[count] = (byte) event;
            // A record's size is bounded by xml.max.record.size, far below 2^31 characters.
            charOffset[count] = (int) Math.min(Integer.MAX_VALUE, offset);
            return count++;
        }

        private int addName(String local, String uri, String prefix) {
            int at = stringCount;
            addString(local);
            addString(uri);
            addString(prefix);
            return at;
        }

        private void addString(String s) {
            if (stringCount == strings.length) {
                strings = Arrays.copyOf(strings, stringCount * 2);
            }
            strings[stringCount++] = s;
        }
    }
}
