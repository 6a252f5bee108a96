package io.xmlingest.core.bind;

import io.xmlingest.core.split.OuterNamespaces;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;

/**
 * Shows the bindings a record inherits from the elements around it as declared on its own start
 * tag. JAXB resolves a prefix through the reader's namespace context, but hands a schema validator
 * only the declarations it reads: without this, a record whose {@code xsi:type} or {@code xs:QName}
 * value uses a prefix (or the default namespace) declared on the root element bound well and was
 * then rejected by the validator as using an undeclared prefix.
 */
final class InheritedNamespaces extends StreamReaderDelegate {

    private final String[] prefixes;
    private final String[] uris;
    private int level = 1;

    private InheritedNamespaces(XMLStreamReader record, List<String> prefixes, List<String> uris) {
        super(record);
        this.prefixes = prefixes.toArray(String[]::new);
        this.uris = uris.toArray(String[]::new);
    }

    /** {@code record} on its start tag, with the inherited bindings it does not declare itself; as it is if none. */
    static XMLStreamReader of(XMLStreamReader record) {
        if (record.getEventType() != XMLStreamConstants.START_ELEMENT
                || !(property(record) instanceof OuterNamespaces outer) || outer.bindings().isEmpty()) {
            return record;
        }
        Set<String> own = new HashSet<>();
        for (int i = 0; i < record.getNamespaceCount(); i++) {
            String p = record.getNamespacePrefix(i);
            own.add(p == null ? "" : p);
        }
        List<String> prefixes = new ArrayList<>();
        List<String> uris = new ArrayList<>();
        for (Map.Entry<String, String> b : outer.bindings().entrySet()) {
            if (!own.contains(b.getKey())) {
                prefixes.add(b.getKey());
                uris.add(b.getValue());
            }
        }
        return prefixes.isEmpty() ? record : new InheritedNamespaces(record, prefixes, uris);
    }

    private static Object property(XMLStreamReader record) {
        try {
            return record.getProperty(OuterNamespaces.PROPERTY);
        } catch (IllegalArgumentException e) {
            return null; // a reader that is not a record's refuses properties it does not know
        }
    }

    @Override
    public int next() throws XMLStreamException {
        if (getEventType() == XMLStreamConstants.END_ELEMENT) {
            level--;
        }
        int event = super.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
            level++;
        }
        return event;
    }

    @Override
    public int nextTag() throws XMLStreamException {
        int event = next();
        while (event == XMLStreamConstants.SPACE || event == XMLStreamConstants.COMMENT
                || event == XMLStreamConstants.PROCESSING_INSTRUCTION
                || ((event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) && isWhiteSpace())) {
            event = next();
        }
        if (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT) {
            throw new XMLStreamException("expected a start or end tag", getLocation());
        }
        return event;
    }

    /** On the record's own start and end tags: StAX reports a tag's declarations at its end too. */
    private boolean atRecordTag() {
        return level == 1 && isStartOrEnd();
    }

    private boolean isStartOrEnd() {
        int event = getEventType();
        return event == XMLStreamConstants.START_ELEMENT || event == XMLStreamConstants.END_ELEMENT;
    }

    @Override
    public int getNamespaceCount() {
        return super.getNamespaceCount() + (atRecordTag() ? prefixes.length : 0);
    }

    @Override
    public String getNamespacePrefix(int index) {
        int own = super.getNamespaceCount();
        return index < own || !atRecordTag() ? super.getNamespacePrefix(index) : prefixes[index - own];
    }

    @Override
    public String getNamespaceURI(int index) {
        int own = super.getNamespaceCount();
        return index < own || !atRecordTag() ? super.getNamespaceURI(index) : uris[index - own];
    }
}
