package io.xmlingest.core.split;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.FileFailedException;
import io.xmlingest.core.error.XmlFaults;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public final class StaxRecordSplitter implements RecordSplitter {

    private final CountingInputStream input;
    private final XMLStreamReader2 cursor;
    private final RecordFragmentReader fragment;
    private final String fileName;
    private final String recordNamespace;
    private final String recordLocalName;
    private final boolean rejectDoctype;

    private long index = -1;
    private int recordDepth = -1;
    private boolean inRecord;
    private SplitPosition position;

    /**
     * @param input    the file's bytes; Woodstox detects the encoding (BOM, XML declaration)
     * @param fileName the name used in positions and errors
     */
    public StaxRecordSplitter(InputStream input, String fileName, QName recordElement, XmlLimits limits) {
        this.input = new CountingInputStream(input);
        this.fileName = fileName;
        this.recordNamespace = recordElement.getNamespaceURI();
        this.recordLocalName = recordElement.getLocalPart();
        this.rejectDoctype = limits.doctype() == DoctypePolicy.REJECT;
        try {
            this.cursor = (XMLStreamReader2) HardenedXmlInput.factory(limits).createXMLStreamReader(fileName, this.input);
        } catch (XMLStreamException e) {
            closeQuietly();
            throw failure(e);
        } catch (RuntimeException e) {
            // Woodstox reports some faults in the first bytes (a broken encoding) unchecked.
            closeQuietly();
            throw new FileFailedException("cannot read XML: " + e, ErrorLocation.ofFile(fileName), null, e);
        }
        this.fragment = new RecordFragmentReader(cursor, limits.maxRecordSize());
    }

    public static StaxRecordSplitter open(Path file, QName recordElement, XmlLimits limits) {
        try {
            return new StaxRecordSplitter(Files.newInputStream(file), file.toString(), recordElement, limits);
        } catch (IOException e) {
            throw new FileFailedException("cannot open: " + e.getMessage(), ErrorLocation.ofFile(file.toString()), null, e);
        }
    }

    @Override
    public boolean next() {
        try {
            if (inRecord) {
                skipRestOfRecord();
            }
            while (cursor.hasNext()) {
                int event = cursor.next();
                if (event == XMLStreamConstants.DTD && rejectDoctype) {
                    throw new FileFailedException("the file has a DOCTYPE, and DOCTYPEs are rejected",
                            location(cursor.getLocation()), IngestSettings.XML_DOCTYPE.key(), null);
                }
                if (event == XMLStreamConstants.START_ELEMENT && isRecordStart()) {
                    index++;
                    inRecord = true;
                    recordDepth = cursor.getDepth();
                    LocationInfo info = cursor.getLocationInfo();
                    XMLStreamLocation2 start = info.getStartLocation();
                    position = new SplitPosition(index, start.getLineNumber(), start.getColumnNumber(),
                            info.getStartingByteOffset());
                    fragment.begin(info.getStartingCharOffset());
                    return true;
                }
            }
            return false;
        } catch (XMLStreamException e) {
            throw failure(e);
        } catch (RuntimeException e) {
            // Woodstox reports some faults (such as broken encodings) as unchecked exceptions.
            if (e.getCause() instanceof XMLStreamException x) {
                throw failure(x);
            }
            if (e instanceof FileFailedException f) {
                throw f;
            }
            throw new FileFailedException("cannot read XML: " + e, location(null), null, e);
        }
    }

    private boolean isRecordStart() {
        if (!recordLocalName.equals(cursor.getLocalName())) {
            return false;
        }
        String ns = cursor.getNamespaceURI();
        return recordNamespace.equals(ns == null ? "" : ns);
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
    public XMLStreamReader record() {
        if (!inRecord) {
            throw new IllegalStateException("not on a record");
        }
        return fragment;
    }

    @Override
    public long bytesRead() {
        return input.count();
    }

    @Override
    public void close() {
        try {
            cursor.closeCompletely();
        } catch (XMLStreamException | RuntimeException e) {
            // closing the stream below is what matters
        }
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            input.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FileFailedException failure(XMLStreamException e) {
        // A resolver's refusal carries no location of its own: fall back to the cursor's.
        return XmlFaults.notReadable(e, location(cursor == null ? null : cursor.getLocation()));
    }

    private ErrorLocation location(Location where) {
        ErrorLocation base = ErrorLocation.ofFile(fileName).withRecordIndex(inRecord ? index : -1);
        if (where != null) {
            base = base.withPosition(where.getLineNumber(), where.getColumnNumber(), -1);
        }
        return base;
    }
}
