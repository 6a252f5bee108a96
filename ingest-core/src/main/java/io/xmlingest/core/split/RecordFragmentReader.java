package io.xmlingest.core.split;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.OversizedRecordException;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;
import org.codehaus.stax2.XMLStreamReader2;

/**
 * A view of the file's cursor that ends with the current record. A binder given this view can
 * read to its end but never past it, so the splitter always knows where the cursor is: on the
 * record's end tag once the view reports END_DOCUMENT, somewhere inside the record otherwise.
 * An entity reference that was not expanded would be dropped silently by a binder, so it is an error.
 */
final class RecordFragmentReader extends StreamReaderDelegate {

    private final XMLStreamReader2 file;
    private final long maxChars;
    private final long maxText;
    /** Characters of text since the last tag: one text node to JAXB, however many events the parser made of it. */
    private long textRun;
    /** Characters of text in the record so far, entities' text included, which its size in the file leaves out. */
    private long recordText;
    private final LineShift shift;
    private int depth;
    private boolean atEndTag;
    private boolean ended;
    private boolean tooLarge;
    private long startChar;
    private OuterNamespaces outer;

    /**
     * @param maxChars the most characters a record may span, checked at each of its tags
     * @param maxText the most characters of text between two tags (xml.max.text.size)
     */
    RecordFragmentReader(XMLStreamReader2 file, long maxChars, long maxText, LineShift shift) {
        super(file);
        this.file = file;
        this.maxChars = maxChars;
        this.maxText = maxText;
        this.shift = shift;
    }

    @Override
    public Object getProperty(String name) {
        return OuterNamespaces.PROPERTY.equals(name) ? outer : super.getProperty(name);
    }

    /** The file's own line and column, also after a resume, so a binder's errors point into the file. */
    @Override
    public Location getLocation() {
        Location at = super.getLocation();
        if (at == null || shift == LineShift.NONE) {
            return at;
        }
        int line = shift.line(at.getLineNumber());
        int column = shift.column(at.getLineNumber(), at.getColumnNumber());
        return new Location() {
            @Override
            public int getLineNumber() {
                return line;
            }

            @Override
            public int getColumnNumber() {
                return column;
            }

            @Override
            public int getCharacterOffset() {
                return at.getCharacterOffset();
            }

            @Override
            public String getPublicId() {
                return at.getPublicId();
            }

            @Override
            public String getSystemId() {
                return at.getSystemId();
            }
        };
    }

    /** Starts a record; the underlying cursor is on its start tag, at {@code startChar}. */
    void begin(long startChar, OuterNamespaces outer) {
        this.outer = outer;
        depth = 1;
        atEndTag = false;
        ended = false;
        tooLarge = false;
        textRun = 0;
        recordText = 0;
        this.startChar = startChar;
    }

    /** True once this record was found larger than the limit (and an {@link OversizedRecordException} thrown). */
    boolean foundTooLarge() {
        return tooLarge;
    }

    /** True once the record's end tag has been read through this view. */
    boolean reachedEndTag() {
        return atEndTag;
    }

    @Override
    public int next() throws XMLStreamException {
        if (atEndTag) {
            ended = true;
            return XMLStreamConstants.END_DOCUMENT;
        }
        int event = super.next();
        switch (event) {
            case XMLStreamConstants.START_ELEMENT -> {
                depth++;
                textRun = 0;
                checkSize();
            }
            case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                // The parser bounds each of its text events, but a reference (&amp;), a CDATA section or a comment
                // starts a new one, and JAXB joins them into one value: 1.5M characters passed a limit of 1MiB so.
                int length = getTextLength();
                textRun += length;
                recordText += length;
                if (recordText > maxChars) {
                    long end = file.getLocationInfo().getEndingCharOffset();
                    if (startChar >= 0 && end >= 0 && end - startChar > maxChars) {
                        throw oversized(); // too large in the file already, as the next tag would say
                    }
                    // Only entities make a record's text longer than the record in the file: 3,000 uses of a
                    // 100,000-character entity in a 30 KB record were held whole, and ran a 256 MB heap out.
                    tooLarge = true;
                    throw new OversizedRecordException("record larger than " + maxChars + " characters once the "
                            + "entities in it are expanded", getLocation(), IngestSettings.XML_MAX_RECORD_SIZE.key());
                }
                if (textRun > maxText) {
                    throw new XMLStreamException("Text size limit (" + maxText + ") exceeded: the text here, joined "
                            + "across references, CDATA sections and comments, has more than that many characters",
                            getLocation());
                }
            }
            case XMLStreamConstants.END_ELEMENT -> {
                textRun = 0;
                checkSize();
                if (--depth == 0) {
                    checkWholeSize();
                    atEndTag = true;
                }
            }
            case XMLStreamConstants.ENTITY_REFERENCE -> throw new XMLStreamException(
                    "unexpanded entity reference &" + getLocalName() + "; in a record", getLocation());
            default -> {
            }
        }
        return event;
    }

    /**
     * Checked at tags only: a single text node is already bounded by the text limit, and reading
     * the position of a tag costs nothing, while asking it of a text node would defeat lazy parsing.
     */
    private void checkSize() throws XMLStreamException {
        // Woodstox's long offsets: StAX's int offsets overflow past 2 GB, and such files are our business.
        long offset = file.getLocationInfo().getStartingCharOffset();
        if (startChar >= 0 && offset >= 0 && offset - startChar > maxChars) {
            throw oversized();
        }
    }

    /** The record's last tag, whose start the check above measures to: the whole record, end tag included. */
    private void checkWholeSize() throws XMLStreamException {
        long end = file.getLocationInfo().getEndingCharOffset();
        if (startChar >= 0 && end >= 0 && end - startChar > maxChars) {
            throw oversized();
        }
    }

    private OversizedRecordException oversized() {
        tooLarge = true;
        return new OversizedRecordException("record larger than " + maxChars + " characters", getLocation(),
                IngestSettings.XML_MAX_RECORD_SIZE.key());
    }

    @Override
    public int nextTag() throws XMLStreamException {
        int event = next();
        while ((event == XMLStreamConstants.CHARACTERS && isWhiteSpace())
                || (event == XMLStreamConstants.CDATA && isWhiteSpace())
                || event == XMLStreamConstants.SPACE
                || event == XMLStreamConstants.PROCESSING_INSTRUCTION
                || event == XMLStreamConstants.COMMENT) {
            event = next();
        }
        if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) {
            throw new XMLStreamException("expected a start or end tag", getLocation());
        }
        return event;
    }

    @Override
    public String getElementText() throws XMLStreamException {
        StringBuilder text = new StringBuilder();
        int event = next();
        while (event != XMLStreamConstants.END_ELEMENT) {
            switch (event) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> text.append(getText());
                case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION -> {
                }
                default -> throw new XMLStreamException("element text expected, found a nested element", getLocation());
            }
            event = next();
        }
        return text.toString();
    }

    @Override
    public boolean hasNext() throws XMLStreamException {
        return !ended;
    }

    @Override
    public int getEventType() {
        return ended ? XMLStreamConstants.END_DOCUMENT : super.getEventType();
    }
}
