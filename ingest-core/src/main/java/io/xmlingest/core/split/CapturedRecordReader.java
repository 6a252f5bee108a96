package io.xmlingest.core.split;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.namespace.NamespaceContext;
import javax.xml.namespace.QName;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Replays a {@link CapturedRecord} as a StAX cursor that starts on the record's start tag and
 * reports END_DOCUMENT after its end tag, exactly like the splitter's live view of a record, so a
 * binder cannot tell the two apart.
 */
final class CapturedRecordReader implements XMLStreamReader {

    private final CapturedRecord r;
    private int at;
    // The start tags open at the current event, as event indexes, kept as the cursor moves: a prefix is
    // resolved at the cost of the depth, where a scan from the record's start made a record with an
    // xsi:type on each of n elements cost n squared.
    private int[] open = new int[16];
    private int openCount;

    CapturedRecordReader(CapturedRecord record) {
        this.r = record;
        if (r.count > 0 && r.type[0] == START_ELEMENT) {
            open[openCount++] = 0;
        }
    }

    private boolean ended() {
        return at >= r.count;
    }

    private boolean tag() {
        return !ended() && (r.type[at] == START_ELEMENT || r.type[at] == END_ELEMENT);
    }

    private boolean textEvent() {
        return !ended() && (r.type[at] == CHARACTERS || r.type[at] == CDATA || r.type[at] == SPACE);
    }

    private void requireStart() {
        if (ended() || r.type[at] != START_ELEMENT) {
            throw new IllegalStateException("not on a start tag");
        }
    }

    private void requireTag() {
        if (!tag()) {
            throw new IllegalStateException("not on a start or end tag");
        }
    }

    private void requireText() {
        if (!textEvent()) {
            throw new IllegalStateException("not on text");
        }
    }

    @Override
    public int next() throws XMLStreamException {
        if (ended()) {
            throw new java.util.NoSuchElementException("after the end of the record");
        }
        if (r.type[at] == END_ELEMENT && openCount > 0) {
            openCount--;
        }
        at++;
        if (!ended() && r.type[at] == START_ELEMENT) {
            if (openCount == open.length) {
                open = java.util.Arrays.copyOf(open, openCount * 2);
            }
            open[openCount++] = at;
        }
        return getEventType();
    }

    @Override
    public int getEventType() {
        return ended() ? END_DOCUMENT : r.type[at];
    }

    @Override
    public boolean hasNext() {
        return !ended();
    }

    @Override
    public void require(int type, String namespaceURI, String localName) throws XMLStreamException {
        if (type != getEventType() || (namespaceURI != null && !namespaceURI.equals(getNamespaceURI()))
                || (localName != null && !localName.equals(getLocalName()))) {
            throw new XMLStreamException("expected event " + type + " {" + namespaceURI + "}" + localName, getLocation());
        }
    }

    @Override
    public String getElementText() throws XMLStreamException {
        requireStart();
        StringBuilder out = new StringBuilder();
        int event = next();
        while (event != END_ELEMENT) {
            if (event == CHARACTERS || event == CDATA || event == SPACE) {
                out.append(r.text, r.textStart[at], r.textLength[at]);
            } else {
                throw new XMLStreamException("element text expected, found a nested element", getLocation());
            }
            event = next();
        }
        return out.toString();
    }

    @Override
    public int nextTag() throws XMLStreamException {
        int event = next();
        while ((event == CHARACTERS || event == CDATA || event == SPACE) && isWhiteSpace()) {
            event = next();
        }
        if (event != START_ELEMENT && event != END_ELEMENT) {
            throw new XMLStreamException("expected a start or end tag", getLocation());
        }
        return event;
    }

    @Override
    public void close() {
    }

    @Override
    public String getNamespaceURI(String prefix) {
        return namespaceContext().getNamespaceURI(prefix);
    }

    @Override
    public boolean isStartElement() {
        return getEventType() == START_ELEMENT;
    }

    @Override
    public boolean isEndElement() {
        return getEventType() == END_ELEMENT;
    }

    @Override
    public boolean isCharacters() {
        return getEventType() == CHARACTERS;
    }

    @Override
    public boolean isWhiteSpace() {
        if (!textEvent()) {
            return false;
        }
        int start = r.textStart[at];
        for (int i = start; i < start + r.textLength[at]; i++) {
            char c = r.text[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return false;
            }
        }
        return true;
    }

    @Override
    public String getAttributeValue(String namespaceURI, String localName) {
        requireStart();
        for (int i = 0; i < r.attributeCount[at]; i++) {
            if (localName.equals(getAttributeLocalName(i))
                    && (namespaceURI == null || namespaceURI.equals(nullToEmpty(getAttributeNamespace(i))))) {
                return getAttributeValue(i);
            }
        }
        return null;
    }

    private String attribute(int index, int field) {
        requireStart();
        if (index < 0 || index >= r.attributeCount[at]) {
            throw new IndexOutOfBoundsException("attribute " + index + " of " + r.attributeCount[at]);
        }
        return r.strings[r.attributes[at] + index * 5 + field];
    }

    @Override
    public int getAttributeCount() {
        requireStart();
        return r.attributeCount[at];
    }

    @Override
    public QName getAttributeName(int index) {
        return new QName(nullToEmpty(getAttributeNamespace(index)), getAttributeLocalName(index),
                nullToEmpty(getAttributePrefix(index)));
    }

    @Override
    public String getAttributeNamespace(int index) {
        return attribute(index, 0);
    }

    @Override
    public String getAttributeLocalName(int index) {
        return attribute(index, 1);
    }

    @Override
    public String getAttributePrefix(int index) {
        return attribute(index, 2);
    }

    @Override
    public String getAttributeValue(int index) {
        return attribute(index, 3);
    }

    @Override
    public String getAttributeType(int index) {
        return attribute(index, 4);
    }

    @Override
    public boolean isAttributeSpecified(int index) {
        attribute(index, 0);
        return true;
    }

    @Override
    public int getNamespaceCount() {
        requireTag();
        // An end tag's declarations go out of scope with it; StAX reports them there too.
        return r.type[at] == START_ELEMENT ? r.namespaceCount[at] : r.namespaceCount[startOf(at)];
    }

    private String namespace(int index, int field) {
        int start = r.type[at] == START_ELEMENT ? at : startOf(at);
        if (index < 0 || index >= r.namespaceCount[start]) {
            throw new IndexOutOfBoundsException("namespace declaration " + index + " of " + r.namespaceCount[start]);
        }
        return r.strings[r.namespaces[start] + index * 2 + field];
    }

    @Override
    public String getNamespacePrefix(int index) {
        requireTag();
        return namespace(index, 0);
    }

    @Override
    public String getNamespaceURI(int index) {
        requireTag();
        return namespace(index, 1);
    }

    /** The start tag that an end tag closes. */
    private int startOf(int end) {
        int depth = 0;
        for (int i = end; i >= 0; i--) {
            if (r.type[i] == END_ELEMENT) {
                depth++;
            } else if (r.type[i] == START_ELEMENT && --depth == 0) {
                return i;
            }
        }
        return 0;
    }

    @Override
    public NamespaceContext getNamespaceContext() {
        return namespaceContext();
    }

    /**
     * The bindings in scope at the current event: the record's own declarations so far, then those
     * around it. Worked out on the first question: JAXB takes a context for every record but asks
     * it something only to resolve a prefix the record does not declare.
     */
    private NamespaceContext namespaceContext() {
        int event = at;
        return new NamespaceContext() {
            private NamespaceContext resolved;

            private NamespaceContext resolved() {
                if (resolved == null) {
                    resolved = contextOf(at == event ? openNow() : openAt(event));
                }
                return resolved;
            }

            @Override
            public String getNamespaceURI(String prefix) {
                return resolved().getNamespaceURI(prefix);
            }

            @Override
            public String getPrefix(String namespaceURI) {
                return resolved().getPrefix(namespaceURI);
            }

            @Override
            public Iterator<String> getPrefixes(String namespaceURI) {
                return resolved().getPrefixes(namespaceURI);
            }
        };
    }

    /** The namespace declarations of the start tags open at the current event, outermost first. */
    private List<int[]> openNow() {
        List<int[]> scope = new ArrayList<>(openCount);
        for (int i = 0; i < openCount; i++) {
            scope.add(new int[] {r.namespaces[open[i]], r.namespaceCount[open[i]]});
        }
        return scope;
    }

    /** As {@link #openNow()}, at an event the cursor has since left: a context asked after it moved on. */
    private List<int[]> openAt(int at) {
        List<int[]> scope = new ArrayList<>();
        int last = Math.min(at, r.count - 1);
        for (int i = 0; i <= last; i++) {
            if (r.type[i] == START_ELEMENT) {
                scope.add(new int[] {r.namespaces[i], r.namespaceCount[i]});
            } else if (r.type[i] == END_ELEMENT && i < at && !scope.isEmpty()) {
                scope.remove(scope.size() - 1);
            }
        }
        return scope;
    }

    private NamespaceContext contextOf(List<int[]> scope) {
        String[] strings = r.strings;
        NamespaceContext outer = r.outer;
        return new NamespaceContext() {
            @Override
            public String getNamespaceURI(String prefix) {
                for (int e = scope.size() - 1; e >= 0; e--) {
                    int[] decl = scope.get(e);
                    for (int i = 0; i < decl[1]; i++) {
                        if (nullToEmpty(strings[decl[0] + i * 2]).equals(prefix)) {
                            return nullToEmpty(strings[decl[0] + i * 2 + 1]);
                        }
                    }
                }
                if (XMLConstants.XML_NS_PREFIX.equals(prefix)) {
                    return XMLConstants.XML_NS_URI;
                }
                return outer == null ? (prefix.isEmpty() ? "" : null) : outer.getNamespaceURI(prefix);
            }

            @Override
            public String getPrefix(String namespaceURI) {
                Iterator<String> all = getPrefixes(namespaceURI);
                return all.hasNext() ? all.next() : null;
            }

            @Override
            public Iterator<String> getPrefixes(String namespaceURI) {
                List<String> found = new ArrayList<>();
                for (int e = scope.size() - 1; e >= 0; e--) {
                    int[] decl = scope.get(e);
                    for (int i = 0; i < decl[1]; i++) {
                        String p = nullToEmpty(strings[decl[0] + i * 2]);
                        if (nullToEmpty(strings[decl[0] + i * 2 + 1]).equals(namespaceURI)
                                && namespaceURI.equals(getNamespaceURI(p)) && !found.contains(p)) {
                            found.add(p);
                        }
                    }
                }
                if (outer != null) {
                    for (Iterator<String> o = outer.getPrefixes(namespaceURI); o.hasNext(); ) {
                        String p = o.next();
                        if (!found.contains(p) && namespaceURI.equals(getNamespaceURI(p))) {
                            found.add(p);
                        }
                    }
                }
                return Collections.unmodifiableList(found).iterator();
            }
        };
    }

    @Override
    public String getText() {
        requireText();
        return new String(r.text, r.textStart[at], r.textLength[at]);
    }

    @Override
    public char[] getTextCharacters() {
        requireText();
        return r.text;
    }

    @Override
    public int getTextCharacters(int sourceStart, char[] target, int targetStart, int length) {
        requireText();
        int n = Math.max(0, Math.min(length, r.textLength[at] - sourceStart));
        System.arraycopy(r.text, r.textStart[at] + sourceStart, target, targetStart, n);
        return n;
    }

    @Override
    public int getTextStart() {
        requireText();
        return r.textStart[at];
    }

    @Override
    public int getTextLength() {
        requireText();
        return r.textLength[at];
    }

    @Override
    public String getEncoding() {
        return null;
    }

    @Override
    public boolean hasText() {
        return textEvent();
    }

    /** Worked out only when asked for (a binder asks to report an error), from the record's raw text. */
    @Override
    public Location getLocation() {
        int event = at;
        return new Location() {
            private int[] lineColumn;

            private int[] resolve() {
                if (lineColumn == null) {
                    lineColumn = r.lineAndColumn(event);
                }
                return lineColumn;
            }

            @Override
            public int getLineNumber() {
                return resolve()[0];
            }

            @Override
            public int getColumnNumber() {
                return resolve()[1];
            }

            @Override
            public int getCharacterOffset() {
                return event < r.count ? r.charOffset[event] : -1;
            }

            @Override
            public String getPublicId() {
                return null;
            }

            @Override
            public String getSystemId() {
                return null;
            }
        };
    }

    @Override
    public QName getName() {
        requireTag();
        return new QName(nullToEmpty(getNamespaceURI()), getLocalName(), nullToEmpty(getPrefix()));
    }

    @Override
    public String getLocalName() {
        requireTag();
        return r.strings[r.name[at]];
    }

    @Override
    public boolean hasName() {
        return tag();
    }

    @Override
    public String getNamespaceURI() {
        if (!tag()) {
            return null;
        }
        // As the live cursor gave it: Woodstox's choice between null and "" for no namespace is kept.
        return r.strings[r.name[at] + 1];
    }

    @Override
    public String getPrefix() {
        if (!tag()) {
            return null;
        }
        return r.strings[r.name[at] + 2];
    }

    @Override
    public String getVersion() {
        return null;
    }

    @Override
    public boolean isStandalone() {
        return false;
    }

    @Override
    public boolean standaloneSet() {
        return false;
    }

    @Override
    public String getCharacterEncodingScheme() {
        return null;
    }

    @Override
    public String getPITarget() {
        return null;
    }

    @Override
    public String getPIData() {
        return null;
    }

    /**
     * JAXB interns every name it is given unless the reader says they are interned already, which
     * doubled the cost of binding. Woodstox interns names and namespace URIs, and the copy keeps
     * the same strings, so the answer is the source's.
     */
    @Override
    public Object getProperty(String name) {
        if (INTERN_NAMES.equals(name) || INTERN_NS_URIS.equals(name)) {
            return r.interned;
        }
        return OuterNamespaces.PROPERTY.equals(name) && r.outer instanceof OuterNamespaces o ? o : null;
    }

    static final String INTERN_NAMES = "org.codehaus.stax2.internNames";
    static final String INTERN_NS_URIS = "org.codehaus.stax2.internNsUris";

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
