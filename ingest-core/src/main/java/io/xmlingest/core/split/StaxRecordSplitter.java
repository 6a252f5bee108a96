package io.xmlingest.core.split;

import com.ctc.wstx.exc.WstxEOFException;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.OversizedRecordException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.error.XmlFaults;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.codehaus.stax2.LocationInfo;
import org.codehaus.stax2.XMLStreamLocation2;
import org.codehaus.stax2.XMLStreamReader2;

/**
 * Splits a file into records with one Woodstox cursor: nothing but the current record's
 * events is ever held, whatever the file's size.
 *
 * <p>The file is decoded here rather than by Woodstox, so that every record's start is known
 * as a byte offset, not only as a character count: that is what lets a later run seek straight
 * to a record (see {@link #resume}) instead of reading the file again from its start.
 */
public final class StaxRecordSplitter implements RecordSplitter {

    private static final int HEAD_BYTES = 1024;
    // A bad byte further than this from the last known position gets its byte offset alone.
    private static final long MAX_RECOUNT_BYTES = 64L << 20;

    private final FileChannel file;
    private final ByteTrackingReader bytes;
    private final Charset charset;
    private final long charBase;
    private final XMLStreamReader2 cursor;
    private final RecordFragmentReader fragment;
    // Cleared by a DTD under xml.doctype=internal: a namespace its attribute defaults declare is not interned.
    private boolean interned;
    private final String fileName;
    private final RecordElements recordElements;
    private final boolean rejectDoctype;
    private final boolean ignoreDoctype;
    private final LineShift shift;
    // Where reading began, in the file's lines and bytes; null for a stream, which cannot be read again.
    private final SplitPosition origin;
    private final List<String> openTags = new ArrayList<>();
    // Each open element's namespace declarations, prefix and URI pairs, beside its tag.
    private final List<String[]> openDeclarations = new ArrayList<>();
    private static final String[] NO_DECLARATIONS = {};
    private static final int MAX_SIBLING_NAMES = 1000;
    private static final int MAX_PASSED_OVER_NAMES = 20;
    /** The parser's line and column of the current record's start (see failure). */
    private int rawStartLine;
    private int rawStartColumn;
    /** See {@link #passedOver()}. */
    private final PassedOverCount passedOver = new PassedOverCount(MAX_PASSED_OVER_NAMES);
    /** Whether the text since the last tag was counted as passed over: one text, however many events it is. */
    private boolean textNoted;

    private String openElements;
    private OuterNamespaces outerNamespaces;
    private long fragmentStart;
    private long prologEnd;
    private long index;
    // A file read from its start that holds no record, but an element of a record's local name in another
    // namespace, is a record.element that misses the namespace: failed, rather than done with nothing published.
    // Looked for only while index < 0: from the start (a resume begins past record 0) and before any record.
    private String nearMiss;
    private int nearMissLine;
    private int nearMissColumn;
    // So is one that holds no record but repeats an element (file.require.records): records are what repeat in a
    // file of records. The names of the children seen so far under each open element, while looking, find the first
    // element with a sibling of its own name before it, interleaved kinds (<order/><invoice/><order/>) too.
    private final boolean requireRecords;
    private List<Set<QName>> childNames = new ArrayList<>();
    private QName repeated;
    private int repeatedLine;
    private int repeatedColumn;
    private int recordDepth = -1;
    // An element is beside the records only under a records' parent: counting at every depth records were found at
    // also counted cousins (/catalog/meta/entry, with records at /catalog/items/item).
    private final RecordParents recordParents = new RecordParents();
    private boolean inRecord;
    private SplitPosition position;
    private long stopBefore = Long.MAX_VALUE;
    private boolean stopped;
    // Attribute defaults the internal DTD subset declares and xml.doctype=ignore leaves unapplied; null if none.
    private DtdAttributeDefaults unappliedDefaults;

    private StaxRecordSplitter(FileChannel file, ByteTrackingReader bytes, Charset charset, Reader text, long charBase,
                               String fileName, RecordElements recordElements, XmlLimits limits, long firstIndex, long prologEnd,
                               LineShift shift, SplitPosition origin) {
        this.file = file;
        this.origin = origin;
        this.bytes = bytes;
        this.charset = charset;
        this.charBase = charBase;
        this.fileName = fileName;
        this.recordElements = recordElements;
        this.rejectDoctype = limits.doctype() == DoctypePolicy.REJECT;
        this.ignoreDoctype = limits.doctype() == DoctypePolicy.IGNORE;
        this.requireRecords = limits.requireRecords();
        this.index = firstIndex - 1;
        this.prologEnd = prologEnd;
        this.shift = shift;
        try {
            this.cursor = (XMLStreamReader2) HardenedXmlInput.factory(limits).createXMLStreamReader(fileName, text);
        } catch (XMLStreamException e) {
            closeQuietly(text);
            throw failure(e);
        } catch (RuntimeException e) {
            closeQuietly(text);
            throw new FileFailedException("cannot read XML: " + e, ErrorLocation.ofFile(fileName), null, e);
        }
        this.fragment = new RecordFragmentReader(cursor, limits.maxRecordSize(), limits.maxTextSize(), shift);
        this.interned = Boolean.TRUE.equals(cursor.getProperty(CapturedRecordReader.INTERN_NAMES))
                && Boolean.TRUE.equals(cursor.getProperty(CapturedRecordReader.INTERN_NS_URIS));
    }

    /**
     * Reads a stream from its start. The stream's records can be split but not re-read: a
     * splitter over a stream gives no raw record text.
     *
     * @param input    the file's bytes; the encoding is detected from a BOM or the XML declaration
     * @param fileName the name used in positions and errors
     */
    public StaxRecordSplitter(InputStream input, String fileName, QName recordElement, XmlLimits limits) {
        this(null, streamReader(input, fileName), fileName, RecordElements.of(recordElement), limits, null);
    }

    private StaxRecordSplitter(FileChannel file, Decoded input, String fileName, RecordElements recordElement,
                               XmlLimits limits, SplitPosition origin) {
        this(file, input.reader(), input.charset(), input.reader(), 0, fileName, recordElement, limits, 0, -1,
                LineShift.NONE, origin);
    }

    private record Decoded(ByteTrackingReader reader, Charset charset) {
    }

    public static StaxRecordSplitter open(Path file, QName recordElement, XmlLimits limits) {
        return open(file, file.toString(), recordElement, limits);
    }

    /** Reads a file from its start; {@code name} is what positions and errors call it. */
    public static StaxRecordSplitter open(Path path, String name, QName recordElement, XmlLimits limits) {
        return open(path, name, RecordElements.of(recordElement), limits);
    }

    /** Reads a file from its start, splitting at any of {@code recordElements}. */
    public static StaxRecordSplitter open(Path path, String name, RecordElements recordElement, XmlLimits limits) {
        return open(path, name, recordElement, limits, Long.MAX_VALUE);
    }

    /**
     * Reads a file from its start up to byte {@code end} (exclusive), where what the caller identified
     * the file by ends: anything written to it after that is not read (the document then ends early,
     * and the file fails there). {@code Long.MAX_VALUE} reads to the end.
     */
    public static StaxRecordSplitter open(Path path, String name, RecordElements recordElement, XmlLimits limits,
                                          long end) {
        return onChannel(path, name, (channel, encoding) -> {
            if (channel.size() == 0 || end == 0) {
                // The parser's own words for it were "Unexpected EOF in prolog". (Empty when identified, a file may have
                // been written to since: what it is read as is what was identified.)
                throw new FileFailedException("the file is empty: it holds no XML document", ErrorLocation.ofFile(name),
                        null, null);
            }
            channel.position(encoding.bomLength());
            ByteTrackingReader reader = new ByteTrackingReader(BoundedChannel.of(channel, end), encoding.bomLength(),
                    encoding, name);
            return new StaxRecordSplitter(channel, new Decoded(reader, encoding.charset()), name, recordElement, limits,
                    new SplitPosition(-1, 1, 1, encoding.bomLength()));
        });
    }

    /**
     * Starts reading at a record a previous run found, without reading anything before it but
     * the prolog; the first {@link #next()} returns record {@code nextIndex}, skipping (not
     * binding) any records between {@code at} and it. The file must be the one {@code at} was
     * taken from: the caller checks its identity.
     */
    public static StaxRecordSplitter resume(Path path, String name, QName recordElement, XmlLimits limits,
                                            ResumePoint at, long nextIndex) {
        return resume(path, name, RecordElements.of(recordElement), limits, at, nextIndex);
    }

    public static StaxRecordSplitter resume(Path path, String name, RecordElements recordElement, XmlLimits limits,
                                            ResumePoint at, long nextIndex) {
        return resume(path, name, recordElement, limits, at, nextIndex, Long.MAX_VALUE);
    }

    /** {@link #resume}, reading up to byte {@code end} as {@link #open(Path, String, RecordElements, XmlLimits, long)} does. */
    public static StaxRecordSplitter resume(Path path, String name, RecordElements recordElement, XmlLimits limits,
                                            ResumePoint at, long nextIndex, long end) {
        return onChannel(path, name, (channel, encoding) -> {
            if (at.prologEnd() < encoding.bomLength() || at.byteOffset() < at.prologEnd() || at.byteOffset() > channel.size()) {
                throw new FileFailedException("cannot resume at byte offset " + at.byteOffset() + " (prolog ends at "
                        + at.prologEnd() + ", the file has " + channel.size() + " bytes): the checkpoint is not of this file",
                        ErrorLocation.ofFile(name).withRecordIndex(at.recordIndex()), null, null);
            }
            String prefix = prolog(channel, encoding, at.prologEnd(), name) + at.openElements();
            channel.position(at.byteOffset());
            ByteTrackingReader reader = new ByteTrackingReader(BoundedChannel.of(channel, end), at.byteOffset(), encoding,
                    name);
            StaxRecordSplitter s = new StaxRecordSplitter(channel, reader, encoding.charset(), new PrefixedReader(prefix, reader),
                    prefix.length(), name, recordElement, limits, at.recordIndex(), at.prologEnd(),
                    new LineShift(at.line(), at.column()),
                    new SplitPosition(at.recordIndex(), at.line(), at.column(), at.byteOffset()));
            s.skip(nextIndex - at.recordIndex());
            return s;
        });
    }

    private interface ChannelWork {
        StaxRecordSplitter on(FileChannel channel, XmlEncoding encoding) throws IOException;
    }

    /** Opens the file, detects its encoding and runs {@code work}; the channel is closed if it fails. */
    private static StaxRecordSplitter onChannel(Path path, String name, ChannelWork work) {
        FileChannel channel = openChannel(path, name);
        try {
            return work.on(channel, sniff(channel, name));
        } catch (IOException e) {
            closeQuietly(channel);
            throw FileFailedException.unreadable(name, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Ends the records at the start tag of record {@code recordIndex}, which is not read: a shard's
     * reader stops where the next shard begins, so it never parses (or fails on) what follows.
     */
    public void stopBefore(long recordIndex) {
        this.stopBefore = recordIndex;
    }

    /** Moves past {@code count} records without handing them to anyone. */
    public void skip(long count) {
        for (long i = 0; i < count; i++) {
            if (!next()) {
                throw new FileFailedException("the file ended after " + (index + 1) + " records, before the "
                        + (index + 1 + count - i) + " a checkpoint counted", location(null), null, null);
            }
        }
    }

    private static FileChannel openChannel(Path path, String name) {
        try {
            return FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw FileFailedException.unreadable(name, e);
        }
    }

    private static XmlEncoding sniff(FileChannel channel, String name) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(HEAD_BYTES);
        while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
            // positional reads: the channel's own position stays where the caller puts it
        }
        return XmlEncodingSniffer.sniff(head.array(), head.position(), name);
    }

    private static Decoded streamReader(InputStream input, String fileName) {
        try {
            BufferedInputStream in = new BufferedInputStream(input, 64 * 1024);
            in.mark(HEAD_BYTES);
            byte[] head = in.readNBytes(HEAD_BYTES);
            in.reset();
            XmlEncoding encoding = XmlEncodingSniffer.sniff(head, head.length, fileName);
            in.skipNBytes(encoding.bomLength());
            return new Decoded(new ByteTrackingReader(Channels.newChannel(in), encoding.bomLength(), encoding, fileName),
                    encoding.charset());
        } catch (IOException e) {
            closeQuietly(input);
            throw FileFailedException.unreadable(fileName, e);
        } catch (RuntimeException e) {
            closeQuietly(input);
            throw e;
        }
    }

    /**
     * The prolog, for the parser to read again before a resumed record: decoded as the rest of the file
     * is, so that an XML 1.1 file's NEL and LSEP line ends reach the parser as line feeds there too.
     */
    private static String prolog(FileChannel channel, XmlEncoding encoding, long to, String name) throws IOException {
        ByteBuffer raw = read(channel, encoding.bomLength(), to, name);
        ByteTrackingReader reader = new ByteTrackingReader(Channels.newChannel(
                new ByteArrayInputStream(raw.array(), 0, raw.limit())), encoding.bomLength(), encoding, name);
        StringBuilder text = new StringBuilder(raw.limit());
        char[] chunk = new char[8192];
        for (int n; (n = reader.read(chunk, 0, chunk.length)) >= 0; ) {
            text.append(chunk, 0, n);
        }
        return text.toString();
    }

    private static ByteBuffer read(FileChannel channel, long from, long to, String name) throws IOException {
        if (to - from > Integer.MAX_VALUE / 2) {
            throw new FileFailedException("the prolog (everything before the root element) is " + (to - from)
                    + " bytes, too large to keep for a resume", ErrorLocation.ofFile(name), null, null);
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) (to - from));
        while (buffer.hasRemaining() && channel.read(buffer, from + buffer.position()) > 0) {
            // read it all
        }
        return buffer.flip();
    }

    private static String decode(FileChannel channel, long from, long to, Charset charset, String name) throws IOException {
        ByteBuffer buffer = read(channel, from, to, name);
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(buffer).toString();
        } catch (CharacterCodingException e) {
            throw new IOException("the prolog is not valid " + charset.name(), e);
        }
    }

    @Override
    public boolean next() {
        if (stopped) {
            return false;
        }
        try {
            if (inRecord) {
                skipRestOfRecord();
            }
            while (cursor.hasNext()) {
                int event = cursor.next();
                switch (event) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (isRecordStart()) {
                            if (index + 1 >= stopBefore) {
                                stopped = true;
                                return false;
                            }
                            passedOver.recordStarts(recordParents.current());
                            textNoted = false;
                            startRecord();
                            return true;
                        }
                        textNoted = false;
                        long parent = recordParents.current();
                        passedOver.element(parent, recordParents.besideRecords(parent), cursor.getName(),
                                cursor.getDepth());
                        if (index < 0 && nearMiss == null && (recordElements.hasLocalName(cursor.getLocalName())
                                || recordElements.hasLocalNameButForCase(cursor.getLocalName()))) {
                            nearMiss = cursor.getName().toString();
                            nearMissLine = cursor.getLocation().getLineNumber();
                            nearMissColumn = cursor.getLocation().getColumnNumber();
                        }
                        if (index < 0 && requireRecords && childNames != null) {
                            noteSibling();
                        }
                        enter();
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        textNoted = false;
                        passedOver.ended(cursor.getDepth());
                        leave();
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                        // Text beside the records, as in "<person/>hello<person/>", is no record either, and it was
                        // dropped without a word; white space between records is layout.
                        if (!textNoted && !cursor.isWhiteSpace()) {
                            textNoted = true;
                            long parent = recordParents.current();
                            passedOver.text(parent, recordParents.besideRecords(parent));
                        }
                    }
                    case XMLStreamConstants.DTD -> {
                        if (rejectDoctype) {
                            throw new FileFailedException("the file has a DOCTYPE, and DOCTYPEs are rejected",
                                    location(cursor.getLocation()), IngestSettings.XML_DOCTYPE.key(), null);
                        }
                        if (ignoreDoctype) {
                            unappliedDefaults = DtdAttributeDefaults.of(cursor.getText());
                        } else {
                            // A namespace the DTD declares as an attribute default (also through a parameter
                            // entity, which is not read here) has a URI the parser does not intern; JAXB trusts a
                            // reader that says its names are, and refused every record ("Namespace URIs and local
                            // names to the unmarshaller needs to be interned").
                            interned = false;
                        }
                    }
                    default -> {
                    }
                }
            }
            if (nearMiss != null && index < 0) {
                String why = recordElements.hasLocalName(QName.valueOf(nearMiss).getLocalPart())
                        ? "a namespace is part of the name" : "names differ in upper and lower case";
                if (unappliedDefaults != null && unappliedDefaults.declaresNamespace()) {
                    // XHTML-style: the namespace is in the DTD, and it is the policy that left the names without it.
                    throw new FileFailedException("the file holds no " + recordElements + " record, but it has "
                            + nearMiss + " elements, and the DOCTYPE's internal subset declares a namespace as an "
                            + "attribute default, which xml.doctype=ignore does not apply: xml.doctype=internal applies it",
                            ErrorLocation.ofFile(fileName).withPosition(nearMissLine, nearMissColumn, -1),
                            IngestSettings.XML_DOCTYPE.key(), null);
                }
                throw new FileFailedException("the file holds no " + recordElements + " record, but it has " + nearMiss
                        + " elements: " + why + ", so record.element=" + nearMiss
                        + " would take those", ErrorLocation.ofFile(fileName).withPosition(nearMissLine,
                        nearMissColumn, -1), IngestSettings.RECORD_ELEMENT.key(), null);
            }
            if (repeated != null && index < 0) {
                throw new FileFailedException("the file holds no " + recordElements + " record, but it repeats "
                        + repeated + " (the second at line " + repeatedLine + ", column " + repeatedColumn + "): is "
                        + "record.element one of those? Then fix it and ingest the file again (a worker takes up a failed "
                        + "file dropped again); where files without records are expected, set "
                        + IngestSettings.REQUIRE_RECORDS.key() + "=false",
                        ErrorLocation.ofFile(fileName).withPosition(repeatedLine, repeatedColumn, -1),
                        IngestSettings.RECORD_ELEMENT.key(), null);
            }
            return false;
        } catch (XMLStreamException e) {
            throw failure(e);
        } catch (RuntimeException e) {
            throw unreadable(e, null);
        }
    }

    private void startRecord() {
        index++;
        inRecord = true;
        recordDepth = cursor.getDepth();
        recordParents.recordStarts();
        LocationInfo info = cursor.getLocationInfo();
        XMLStreamLocation2 start = info.getStartLocation();
        long startChar = info.getStartingCharOffset();
        shift.anchor(start.getLineNumber(), start.getColumnNumber());
        rawStartLine = start.getLineNumber();
        rawStartColumn = start.getColumnNumber();
        if (prologEnd < 0) {
            // The first element is the root, so a record at the root has the prolog end at its own start.
            prologEnd = bytes.byteOffsetOf(startChar - charBase);
        }
        position = new SplitPosition(index, shift.line(start.getLineNumber()),
                shift.column(start.getLineNumber(), start.getColumnNumber()), bytes.byteOffsetOf(startChar - charBase));
        fragmentStart = startChar;
        fragment.begin(startChar, outerNamespaces());
    }

    @Override
    public Map<String, Long> passedOver() {
        return passedOver.asMap();
    }

    private void noteSibling() {
        int depth = cursor.getDepth();
        while (childNames.size() <= depth + 1) {
            childNames.add(new HashSet<>());
        }
        Set<QName> siblings = childNames.get(depth);
        QName name = cursor.getName();
        // Bounded: a file of records repeats within its first few names; thousands of distinct ones are no such file.
        if (siblings.size() < MAX_SIBLING_NAMES && !siblings.add(name)) {
            repeated = name;
            repeatedLine = cursor.getLocation().getLineNumber();
            repeatedColumn = cursor.getLocation().getColumnNumber();
            childNames = null;
            return;
        }
        childNames.get(depth + 1).clear(); // its own children are yet to come
    }

    /** Remembers an element around the records as the start tag a resume would need to reopen it. */
    private void enter() {
        recordParents.enter(cursor.getNamespaceURI(), cursor.getLocalName());
        if (prologEnd < 0) {
            prologEnd = bytes.byteOffsetOf(cursor.getLocationInfo().getStartingCharOffset() - charBase);
        }
        StringBuilder tag = new StringBuilder(64).append('<');
        String prefix = cursor.getPrefix();
        if (prefix != null && !prefix.isEmpty()) {
            tag.append(prefix).append(':');
        }
        tag.append(cursor.getLocalName());
        int declared = cursor.getNamespaceCount();
        String[] declarations = declared == 0 ? NO_DECLARATIONS : new String[declared * 2];
        for (int i = 0; i < declared; i++) {
            String p = cursor.getNamespacePrefix(i);
            tag.append(p == null || p.isEmpty() ? " xmlns" : " xmlns:" + p).append("=\"");
            escape(cursor.getNamespaceURI(i), tag);
            tag.append('"');
            declarations[i * 2] = p == null ? "" : p;
            declarations[i * 2 + 1] = cursor.getNamespaceURI(i) == null ? "" : cursor.getNamespaceURI(i);
        }
        openTags.add(tag.append('>').toString());
        openDeclarations.add(declarations);
        openElements = null;
        if (declared > 0) {
            outerNamespaces = null; // only declarations change it: elements between records leave it as it was
        }
    }

    private void leave() {
        recordParents.leave();
        if (!openTags.isEmpty()) {
            openTags.remove(openTags.size() - 1);
            if (openDeclarations.remove(openDeclarations.size() - 1).length > 0) {
                outerNamespaces = null;
            }
            openElements = null;
        }
    }

    private static void escape(String value, StringBuilder out) {
        if (value == null) {
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
    }

    private boolean isRecordStart() {
        return recordElements.indexOf(cursor.getNamespaceURI(), cursor.getLocalName()) >= 0;
    }

    private void skipRestOfRecord() throws XMLStreamException {
        if (!fragment.reachedEndTag()) {
            while (!(cursor.getEventType() == XMLStreamConstants.END_ELEMENT && cursor.getDepth() == recordDepth)) {
                cursor.next();
            }
        }
        inRecord = false;
    }

    @Override
    public SplitPosition position() {
        if (position == null) {
            throw new IllegalStateException("next() has not found a record yet");
        }
        return position;
    }

    @Override
    public ResumePoint resumePoint() {
        SplitPosition p = position();
        if (p.byteOffset() < 0 || prologEnd < 0) {
            return null;
        }
        if (openElements == null) {
            openElements = String.join("", openTags);
        }
        return new ResumePoint(p.recordIndex(), p.byteOffset(), p.line(), p.column(), prologEnd, openElements);
    }

    @Override
    public XMLStreamReader record() {
        if (!inRecord) {
            throw new IllegalStateException("not on a record");
        }
        // The check that a record writes every attribute default runs while a record is copied, and a copy
        // tells JAXB truly whether its names are interned, which the parser does not after a DTD (see interned).
        return unappliedDefaults == null && interned ? fragment : capture().reader();
    }

    @Override
    public RawRecord.Source rawLater() {
        if (!inRecord || !fragment.reachedEndTag()) {
            throw new IllegalStateException("the record was not read to its end tag");
        }
        long start = position().byteOffset();
        long lastByte;
        long chars;
        try {
            lastByte = lastByteOfRecord(start);
            chars = cursor.getLocationInfo().getEndingCharOffset() - fragmentStart;
        } catch (XMLStreamException e) {
            throw failure(e);
        }
        return new RawRecord.Source() {
            @Override
            public RawRecord read(long maxBytes) {
                return raw(start, lastByte, maxBytes);
            }

            @Override
            public long chars() {
                return chars;
            }
        };
    }

    /**
     * Reads the rest of the current record into a copy that another thread can bind. A record over
     * {@code xml.max.record.size} is rejected here, as a binder would reject it; the next
     * {@link #next()} skips what is left of it. Any other fault in the record fails the file.
     *
     * @throws RecordRejectedException the record is too large
     */
    @Override
    public CapturedRecord capture() {
        if (!inRecord || fragment.reachedEndTag()) {
            throw new IllegalStateException("not at the start of a record");
        }
        long startChar = fragmentStart;
        CapturedRecord.Builder events = new CapturedRecord.Builder(outerNamespaces(), interned);
        try {
            events.add(cursor, 0);
            checkDefaultsWritten();
            while (fragment.next() != XMLStreamConstants.END_DOCUMENT) {
                if (unappliedDefaults != null && cursor.getEventType() == XMLStreamConstants.START_ELEMENT) {
                    checkDefaultsWritten();
                }
                events.add(cursor, cursor.getLocationInfo().getStartingCharOffset() - startChar);
            }
            long start = position.byteOffset();
            long lastByte = lastByteOfRecord(start);
            long end = lastByte < 0 ? -1 : endAfter(lastByte);
            long length = end < 0 ? -1 : end - start;
            CapturedRecord.RecordText text = file == null || length < 0 ? CapturedRecord.RecordText.NONE
                    : () -> readBack(start, end);
            return events.build(position.line(), position.column(), start, length, text, bytes.xml11());
        } catch (OversizedRecordException big) {
            throw tooLarge(big);
        } catch (XMLStreamException e) {
            throw failure(e);
        } catch (RuntimeException e) {
            throw unreadable(e, fragment.getLocation());
        }
    }

    /**
     * An unchecked fault met reading the file, as the file's: Woodstox reports some faults (such as
     * broken encodings) as unchecked exceptions wrapping a stream fault, and throws others it never
     * meant to (fuzzing found a processing instruction, read from an entity's text inside a record,
     * that made it overrun an array), which no caller takes for a bad file.
     *
     * @param at where the reader stood, or null when unknown
     */
    private FileFailedException unreadable(RuntimeException e, Location at) {
        if (e.getCause() instanceof XMLStreamException x) {
            return failure(x);
        }
        if (e instanceof FileFailedException f) {
            return f;
        }
        return new FileFailedException("cannot read XML: " + e, location(at), null, e);
    }

    private RecordRejectedException tooLarge(OversizedRecordException big) {
        return big.rejection(ErrorLocation.ofFile(fileName).withRecordIndex(index).withPosition(position.line(),
                position.column(), position.byteOffset()));
    }

    @Override
    public RecordRejectedException restTooLarge() {
        if (!inRecord || fragment.reachedEndTag() || fragment.foundTooLarge()) {
            return null;
        }
        try {
            while (!fragment.reachedEndTag()) {
                fragment.next();
            }
            return null;
        } catch (OversizedRecordException big) {
            return tooLarge(big);
        } catch (XMLStreamException e) {
            throw failure(e);
        } catch (RuntimeException e) {
            throw unreadable(e, fragment.getLocation());
        }
    }

    /**
     * Fails the file where a record's start tag leaves out an attribute the internal DTD subset gives a
     * default, which xml.doctype=ignore does not apply: the record would be published without a value the
     * file means. It is the file's policy that must change, so the file stops rather than the record.
     */
    private void checkDefaultsWritten() {
        String lost = unappliedDefaults == null ? null : unappliedDefaults.missingAt(cursor);
        if (lost != null) {
            throw new FileFailedException("the record leaves out " + lost + ", and xml.doctype=ignore does not "
                    + "apply it: the record would be published without the value the file means; xml.doctype=internal "
                    + "applies the defaults",
                    location(fragment.getLocation()), IngestSettings.XML_DOCTYPE.key(), null);
        }
    }

    /** Safe from any thread: positional reads leave the channel's position, which the parser's reader uses, alone. */
    private String readBack(long start, long end) {
        try {
            return decode(file, start, end, charset, fileName);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The namespace bindings in scope at the record's start tag. Kept while the elements around
     * the records stay the same, unless the record's own start tag declares namespaces.
     */
    private OuterNamespaces outerNamespaces() {
        if (outerNamespaces == null) {
            outerNamespaces = OuterNamespaces.of(openDeclarations);
        }
        return outerNamespaces;
    }

    @Override
    public RawRecord raw(long maxBytes) {
        long start = position().byteOffset();
        try {
            if (inRecord) {
                skipRestOfRecord();
            }
            return raw(start, lastByteOfRecord(start), maxBytes);
        } catch (XMLStreamException e) {
            throw failure(e);
        }
    }

    /** The file offset of the last byte of the record the cursor is on the end tag of; -1 when unknown. */
    private long lastByteOfRecord(long start) throws XMLStreamException {
        return start < 0 ? -1 : bytes.byteOffsetOf(cursor.getLocationInfo().getEndingCharOffset() - 1 - charBase);
    }

    /** The offset just after a record whose last byte is at {@code lastByte}. */
    private long endAfter(long lastByte) {
        // The record ends with '>', one code unit wide in every encoding this reads.
        return lastByte + (charset.name().startsWith("UTF-16") ? 2 : 1);
    }

    private RawRecord raw(long start, long lastByte, long maxBytes) {
        if (start < 0 || lastByte < 0) {
            return new RawRecord(start, -1, null);
        }
        long end = endAfter(lastByte);
        long length = end - start;
        if (file == null || length > maxBytes) {
            return new RawRecord(start, length, null);
        }
        try {
            return new RawRecord(start, length, decode(file, start, end, charset, fileName));
        } catch (IOException e) {
            return new RawRecord(start, length, null);
        }
    }

    @Override
    public long bytesRead() {
        return bytes.nextByteOffset();
    }

    @Override
    public void close() {
        try {
            cursor.closeCompletely();
        } catch (XMLStreamException | RuntimeException e) {
            // closing the channel below is what matters
        }
        closeQuietly(bytes);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // nothing to report: the file was only read
        }
    }

    @Override
    public FileFailedException fault(XMLStreamException e) {
        return failure(e);
    }

    private FileFailedException failure(XMLStreamException e) {
        FileFailedException f = failureAt(e);
        ErrorLocation at = f.location().orElse(null);
        // The parser's own position, not the file's: after a resume, the file's lines are worked out for what follows
        // the first record read, and the replayed prolog's would come out wrong.
        Location raw = e.getLocation() != null ? e.getLocation() : cursor == null ? null : cursor.getLocation();
        // With a context, XmlFaults has already followed it to where the record uses the entity.
        boolean placed = e.getLocation() instanceof XMLStreamLocation2 nested && nested.getContext() != null
                && nested.getLineNumber() > 0;
        if (inRecord && position != null && at != null && raw != null && raw.getLineNumber() > 0 && !placed
                && (raw.getLineNumber() < rawStartLine
                || raw.getLineNumber() == rawStartLine && raw.getColumnNumber() < rawStartColumn)) {
            // Before the record's start is in the DOCTYPE: the parser placed a fault in an entity's text where the
            // entity is declared, and kept no trace of where the record used it (its limit on expansions does so).
            return new FileFailedException(f.reason() + " (in the text of an entity this record uses, which the "
                    + "DOCTYPE declares at line " + raw.getLineNumber() + ", column " + raw.getColumnNumber() + ")",
                    at.withPosition(position.line(), position.column(), position.byteOffset()),
                    f.settingKey().orElse(null), e);
        }
        // (Not for a file that ends in the tag: cut short there, it holds no such record.)
        if (!inRecord && !f.reason().contains("after record index") && !(e instanceof WstxEOFException)) {
            QName open = UnfinishedStartTag.top(cursor);
            // No record is open between records, so a record element on top of the parser's stack is one whose start
            // tag it was reading: the fault is that record's, not the file's between records.
            if (open != null && recordElements.indexOf(open.getNamespaceURI(), open.getLocalPart()) >= 0) {
                long next = index + 1;
                String tag = open.getPrefix().isEmpty() ? open.getLocalPart() : open.getPrefix() + ":" + open.getLocalPart();
                return new FileFailedException(f.reason() + " (in the start tag of record index " + next + ", <" + tag
                        + ">)", f.location().orElse(ErrorLocation.ofFile(fileName))
                        .withRecordIndex(next), f.settingKey().orElse(null), e);
            }
        }
        if (inRecord || index < 0 || f.reason().contains("after record index")) {
            return f;
        }
        // Between records no record is at fault: counted to the next one, an epilog's junk was blamed on a record
        // the file does not have. The line and column say where; this says which records it came after.
        return new FileFailedException(f.reason() + " (between records, after record index " + index + ")",
                f.location().orElse(ErrorLocation.ofFile(fileName)), f.settingKey().orElse(null), e);
    }

    private FileFailedException failureAt(XMLStreamException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidEncodingException bad) {
                int[] lineColumn = lineAndColumn(bad.byteOffset());
                return new FileFailedException(bad.getMessage(), ErrorLocation.ofFile(fileName)
                        .withRecordIndex(faultIndex())
                        .withPosition(lineColumn[0], lineColumn[1], bad.byteOffset()), null, bad);
            }
        }
        // A resolver's refusal carries no location of its own: fall back to the cursor's.
        FileFailedException f = XmlFaults.notReadable(e, location(cursor == null ? null : cursor.getLocation()));
        if (e instanceof WstxEOFException && String.valueOf(e.getMessage()).startsWith("Unexpected EOF in prolog")) {
            // The parser's words for a file that ends before its root element, which say little to whoever sent it.
            f = new FileFailedException("the file holds no XML document: it ends before its first element (it holds "
                    + "nothing but white space, a byte order mark, an XML declaration, a DOCTYPE, comments or processing "
                    + "instructions, or breaks off in one of them or in its first tag)",
                    f.location().orElse(ErrorLocation.ofFile(fileName)), null, e);
        }
        if (e instanceof WstxEOFException && !inRecord && index >= 0
                && String.valueOf(e.getMessage()).contains("was expecting a close tag")) {
            // Between records, a fault is counted to the next record, whose start tag it may be in; a file that
            // ends there has no next record, and naming one made it look as if the file held one more.
            ErrorLocation here = f.location().orElse(ErrorLocation.ofFile(fileName));
            f = new FileFailedException("the file ends after record index " + index + " without closing the elements "
                    + "around its records (was it cut short?); " + f.reason(), ErrorLocation.ofFile(fileName)
                    .withPosition(here.line(), here.column(), -1), null, e);
        }
        ErrorLocation at = f.location().orElse(null);
        if (at == null || at.line() <= 0) {
            return f;
        }
        // The parser counts lines from where it started reading; a resumed file's are the file's own.
        ErrorLocation mapped = at.withPosition(shift.line(at.line()), shift.column(at.line(), at.column()), at.byteOffset());
        return mapped.equals(at) ? f : new FileFailedException(f.reason(), mapped, f.settingKey().orElse(null), e);
    }

    /**
     * The line and column of a bad byte, or -1s. The parser never saw it, so they are counted here from the
     * last place whose line, column and byte offset are known (the current record's start, else where reading
     * began): at most a record's worth of the file is decoded again, and only when the file fails.
     */
    private int[] lineAndColumn(long badByte) {
        int[] unknown = {-1, -1};
        SplitPosition from = position != null ? position : origin;
        if (file == null || from == null || from.line() <= 0 || from.byteOffset() < 0
                || badByte < from.byteOffset() || badByte - from.byteOffset() > MAX_RECOUNT_BYTES) {
            return unknown;
        }
        CharsetDecoder decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.allocate(8192);
        CharBuffer out = CharBuffer.allocate(8192);
        long next = from.byteOffset();
        LineCounter lines = new LineCounter(from.line(), from.column(), bytes.xml11());
        try {
            boolean last = false;
            while (true) {
                if (!last) {
                    in.limit((int) Math.min(in.capacity(), in.position() + (badByte - next)));
                    int n = file.read(in, next);
                    if (n < 0) {
                        return unknown;
                    }
                    next += n;
                    last = next >= badByte;
                }
                in.flip();
                CoderResult r = decoder.decode(in, out, last);
                in.compact();
                if (r.isError()) {
                    return unknown;
                }
                out.flip();
                while (out.hasRemaining()) {
                    lines.add(out.get());
                }
                out.clear();
                if (last && r.isUnderflow()) {
                    return new int[] {lines.line(), lines.column()};
                }
            }
        } catch (IOException e) {
            return unknown;
        }
    }

    /**
     * The record a fault is in: the current one; none between records, where {@link #failure} says which record the
     * fault came after instead (one in a record's start tag is found before the splitter knows it is a record's).
     */
    private long faultIndex() {
        return inRecord ? index : -1;
    }

    private ErrorLocation location(Location where) {
        ErrorLocation base = ErrorLocation.ofFile(fileName).withRecordIndex(faultIndex());
        if (where != null) {
            base = base.withPosition(where.getLineNumber(), where.getColumnNumber(), -1);
        }
        return base;
    }
}
