package io.xmlingest.core.bind;

import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.OversizedRecordException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.error.XmlFaults;
import io.xmlingest.core.jaxb.ElementNames;
import java.util.ArrayDeque;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a record without a model (schema-less mode), keeping everything a consumer could need:
 * <ul>
 * <li>attributes, then child elements in order of first appearance, named by local name; an
 *     attribute that shares its name with a child element is written {@code @name};</li>
 * <li>an element met more than once under one parent is a list, in document order;</li>
 * <li>an element with neither attributes nor children is its text, exactly as written (no type
 *     guessing: "01234" stays text; an empty element is ""); otherwise its own text is kept under
 *     {@code value} ({@code #value} if that name is taken): with attributes alone, its text as written;
 *     with children, the pieces between them joined in order (mixed content), leaving out each piece
 *     that is only whitespace, which is indentation;</li>
 * <li>names in no namespace or in the record element's namespace are local names; the XML
 *     namespace is written {@code xml:name}; any other is {@code {namespace-uri}name}, so names
 *     do not depend on the prefixes a file happens to use. Two elements that differ only in being
 *     in no namespace or the record's are one name (an array if both occur); two such attributes
 *     cannot be one JSON property, so the one in the record's namespace is written
 *     {@code {namespace-uri}name};</li>
 * <li>{@code xsi:} attributes are dropped, but {@code xsi:nil="true"} makes the element null;
 *     namespace declarations, comments and processing instructions are not data; CDATA is text;</li>
 * <li>the record itself is always an object: one of text alone is {@code {"value": text}}, a nil
 *     one {@code {}}.</li>
 * </ul>
 * Depth and sizes are bounded by the splitter's limits; the tree is built with a stack of its own,
 * so a deep record does not recurse.
 * Not shared between threads.
 */
public final class XmlTreeBinder implements RecordBinder<XmlTree> {

    private final ArrayDeque<Frame> open = new ArrayDeque<>();

    private static final class Frame {
        final String name;
        final XmlTree.Builder tree = new XmlTree.Builder();
        final StringBuilder text = new StringBuilder();
        /** Where the text since the last child tag starts in {@code text}, and whether it is more than whitespace. */
        int pieceStart;
        boolean pieceHasText;
        boolean hasText;
        boolean nil;
        int nilLine;
        int nilColumn;

        void appendText(char[] chars, int start, int length) {
            text.append(chars, start, length);
            for (int i = start, end = start + length; !pieceHasText && i < end; i++) {
                char c = chars[i];
                pieceHasText = c != ' ' && c != '\t' && c != '\n' && c != '\r';
            }
            hasText |= pieceHasText;
        }

        /** Indentation between child elements is layout, not content: a piece of whitespace alone is dropped. */
        void endPiece() {
            if (!pieceHasText) {
                text.setLength(pieceStart);
            }
            pieceStart = text.length();
            pieceHasText = false;
        }

        Frame(String name) {
            this.name = name;
        }
    }

    @Override
    public XmlTree bind(XMLStreamReader record, ErrorLocation where) {
        Object value = bindValue(record, where);
        return value instanceof XmlTree tree ? tree : wrap(value);
    }

    /**
     * The element at the reader's start tag by the same rules, as the value it would have inside a
     * record: text (a String) when it has neither attributes nor children, null when nil, an
     * XmlTree otherwise. For content a model leaves open (an {@code xs:any} wildcard), written as
     * schema-less mode writes it.
     */
    public Object bindValue(XMLStreamReader record, ErrorLocation where) {
        open.clear();
        try {
            String recordNamespace = nullToEmpty(record.getNamespaceURI());
            int event = record.getEventType();
            while (true) {
                switch (event) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (!open.isEmpty()) {
                            open.peek().endPiece();
                        }
                        start(record, recordNamespace, where);
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
                            open.peek().appendText(record.getTextCharacters(), record.getTextStart(),
                                    record.getTextLength());
                    case XMLStreamConstants.END_ELEMENT -> {
                        Frame done = open.pop();
                        if (done.nil && (done.hasText || done.tree.hasChildren())) {
                            // Written as null, its content would be lost; a nil element has none.
                            throw new RecordRejectedException("record does not bind: element <" + done.name
                                    + "> is nil (xsi:nil) but holds " + (done.hasText ? "text" : "elements")
                                    + ", which would be lost: a nil element has no content",
                                    done.nilLine > 0 ? where.withPosition(done.nilLine, done.nilColumn, -1) : where, null);
                        }
                        Object value = valueOf(done);
                        if (open.isEmpty()) {
                            return value;
                        }
                        open.peek().tree.child(done.name, value);
                    }
                    default -> {
                        // comments, processing instructions: not data
                    }
                }
                event = record.next();
            }
        } catch (OversizedRecordException big) {
            throw big.rejection(where);
        } catch (XMLStreamException e) {
            throw XmlFaults.notReadable(e, where, record.getLocation());
        } catch (RuntimeException e) {
            // Read straight off the parser, a fault in a text is found only as the text is read, and comes
            // wrapped (Woodstox's lazy exception): it is the file's, as it is when a copy is made.
            if (e.getCause() instanceof XMLStreamException x) {
                throw XmlFaults.notReadable(x, where, record.getLocation());
            }
            throw e;
        }
    }

    private void start(XMLStreamReader r, String recordNamespace, ErrorLocation where) {
        Frame f = new Frame(name(r.getNamespaceURI(), r.getLocalName(), recordNamespace));
        for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
            String ns = nullToEmpty(r.getAttributeNamespace(i));
            if (XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.equals(ns)) {
                if ("nil".equals(r.getAttributeLocalName(i))) {
                    String v = r.getAttributeValue(i).trim();
                    f.nil = "true".equals(v) || "1".equals(v);
                    if (!f.nil && !"false".equals(v) && !"0".equals(v)) {
                        // Taken for false, the mark the file set was dropped without a word.
                        Location at = r.getLocation();
                        throw new RecordRejectedException("record does not bind: attribute xsi:nil of <" + f.name
                                + "> is " + XsdText.quote(r.getAttributeValue(i)) + ", which is not an xs:boolean (true, "
                                + "false, 1 or 0)", at == null ? where : where.withPosition(at.getLineNumber(),
                                at.getColumnNumber(), -1), null);
                    }
                    Location at = f.nil ? r.getLocation() : null;
                    f.nilLine = at == null ? -1 : at.getLineNumber();
                    f.nilColumn = at == null ? -1 : at.getColumnNumber();
                }
                continue;
            }
            String local = r.getAttributeLocalName(i);
            // An unprefixed attribute is in no namespace whatever the default namespace is. Only a prefixed one
            // can be in the record's namespace, and then its plain name may be taken by an unprefixed one.
            String name = !ns.isEmpty() && ns.equals(recordNamespace) && hasPlainAttribute(r, local)
                    ? "{" + ns + "}" + local : name(ns, local, recordNamespace);
            f.tree.attribute(name, r.getAttributeValue(i));
        }
        open.push(f);
    }

    /** Whether the element also has an attribute {@code local} in no namespace, which keeps the plain name. */
    private static boolean hasPlainAttribute(XMLStreamReader r, String local) {
        for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
            String ns = r.getAttributeNamespace(i);
            if ((ns == null || ns.isEmpty()) && local.equals(r.getAttributeLocalName(i))) {
                return true;
            }
        }
        return false;
    }

    private static Object valueOf(Frame f) {
        if (f.nil) {
            // A nil element's attributes are data all the same: {"unit":"kg","value":null}, not a bare null.
            return f.tree.isEmpty() ? null : f.tree.buildNil();
        }
        if (f.tree.isEmpty()) {
            return f.text.toString();
        }
        if (!f.tree.hasChildren()) {
            // Attributes and text alone: the text is the value, as a leaf's is, not indentation between children, so
            // whitespace is kept (<code type="x"> </code> lost its " " and read as <code type="x"/>).
            return f.tree.build(f.text.isEmpty() ? null : f.text.toString());
        }
        f.endPiece();
        return f.tree.build(f.text.isEmpty() ? null : f.text.toString());
    }

    /** A record that is only text (or nil) is still an object, so every message is one: its text goes under "value". */
    private static XmlTree wrap(Object value) {
        XmlTree.Builder b = new XmlTree.Builder();
        return b.build(value == null ? null : (String) value);
    }

    private static String name(String namespace, String localName, String recordNamespace) {
        return ElementNames.schemaLessName(namespace, localName, recordNamespace);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
