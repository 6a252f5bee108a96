package io.xmlingest.core.bind;

import io.xmlingest.core.jaxb.Adapters;
import io.xmlingest.core.jaxb.ElementNames;
import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.Unmarshaller;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapters;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.util.StreamReaderDelegate;

/**
 * Finds content of a record that the model has no place for, which JAXB drops without an event:
 * an attribute a class does not declare (or any attribute on an element bound to a plain value),
 * text directly inside an element that holds only elements, a second occurrence of an element
 * the class holds once (JAXB keeps the last; of an element the class has several places for, such
 * as a substitution group's member also named on its own, JAXB fills only the first), xsi:nil on
 * an element the model does not let be nil (JAXB binds an empty value instead), and content inside
 * a nil element (JAXB binds null).
 * Unknown elements need no help: JAXB reports them.
 *
 * <p>It sits between the record's reader and JAXB, and hears from JAXB (as its unmarshaller
 * listener) which class each element became, so it knows the class whose content each event is.
 * Content inside what the model keeps as DOM ({@code xs:any}, {@code xs:anyType}) keeps all of
 * itself and is not looked at. One per binder; {@link #reset} before each record.
 */
final class UnmappedContent extends Unmarshaller.Listener {

    /** What one class has room for, worked out once. */
    private record Plan(Set<String> attributes, boolean anyAttribute, boolean text, Map<String, Child> children) {
    }

    /**
     * A child element the class declares, by namespace (elements of one local name chain through
     * {@code sameLocalName}): its index among the properties held once (or -1 when it repeats); whether
     * it is bound to a plain value, which has no room for attributes; whether it may be nil, and keeps
     * its attributes when it is (only in a JAXBElement); for an item of a choice, the choice's property
     * name; the class an xsi:type on it must name a kind of, or null when that is not checked; and for a
     * plain value, the built-in types an xsi:type on it must name a kind of ({@link BuiltinTypes#bases}).
     */
    private record Child(String namespace, int once, boolean plain, boolean nillable, boolean keepsNilAttributes,
                         String choice, Class<?> type, Set<String> builtinBases, ElementNames alternatives,
                         boolean anyType, Field nilList, Child sameLocalName) {

        Child with(Child sameLocalName) {
            return new Child(namespace, once, plain, nillable, keepsNilAttributes, choice, type, builtinBases,
                    alternatives, anyType, nilList, sameLocalName);
        }
    }

    private static final ClassValue<Plan> PLANS = new ClassValue<>() {
        @Override
        protected Plan computeValue(Class<?> type) {
            return plan(type);
        }
    };

    /** A bound element being read: its depth in the record, its class's plan, the children seen once. */
    private static final class Frame {
        int depth;
        String name;
        Plan plan;
        long seen;
        Set<Integer> seenBeyond64;
        Object target;
        // Items of each list of nillable plain values read so far, nil ones included (see nilItem).
        Map<Field, int[]> listItems;
    }

    // Where nil items go back into lists of plain values, by the object holding the list (see nilItem).
    private IdentityHashMap<Object, List<Object[]>> nilItems;

    private static final int[] ZERO = new int[1];

    private Frame[] frames = new Frame[16];
    private int size;
    private int depth;
    private XMLStreamReader reader;
    // A child bound to a plain value that carried attributes: found out when no class claims it.
    private int plainDepth;
    private String plainAttribute;
    private String plainElement;
    // A child marked xsi:nil="true": JAXB binds it as null and drops any content it has.
    private int nilDepth;
    private String nilElement;
    // The class the child element at pendingDepth must bind to, which an xsi:type may name another of, and the
    // type that xsi:type names (resolved where it stands).
    private Class<?> pendingType;
    private int pendingDepth;
    private QName pendingTypeName;
    private String pendingTypeValue;
    // For an item of an @XmlElements choice: the choice, which names its items by their class alone.
    private ElementNames pendingChoice;
    // An xs:anyType element whose xsi:type names a built-in type: JAXB converts its text with its own lenient
    // converters, so the text is gathered and checked strictly at its end tag.
    private int simpleDepth;
    // A child the class does not name, which a wildcard may let in: JAXB binds one it knows by its declaration, and a
    // plain value so bound has no room for attributes, nor a class for the nil mark. Checked when JAXB says which.
    private int wildcardDepth;
    private String wildcardAttribute;
    private boolean wildcardNil;
    private String simpleType;
    private String simpleElement;
    private final StringBuilder simpleText = new StringBuilder();
    /** The class the record element binds to: an xsi:type on it must name a kind of it too. */
    private final Class<?> recordType;
    // On the end tag of a nil element: JAXB, keeping a nil element's attributes, reads its value from "" here.
    private boolean atNilEnd;

    private String problem;
    private int line;
    private int column;

    /** @param recordType the class record elements bind to, or null when an xsi:type on one is not checked */
    UnmappedContent(Class<?> recordType) {
        this.recordType = recordType == null ? null : checkedType(null, recordType);
    }

    /** The reader JAXB should read the record from; {@code record} is at the record's start tag. */
    XMLStreamReader reset(XMLStreamReader record) {
        reader = record;
        size = 0;
        depth = record.getEventType() == XMLStreamConstants.START_ELEMENT ? 1 : 0;
        plainDepth = 0;
        nilDepth = 0;
        simpleDepth = 0;
        wildcardDepth = 0;
        pendingChoice = null;
        if (nilItems != null) {
            nilItems.clear();
        }
        atNilEnd = false;
        pendingType = null;
        problem = null;
        if (depth == 1) {
            String nil = record.getAttributeValue(XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "nil");
            if (nil != null && isTrue(nil)) {
                // JAXB ignores the mark on the element it is asked to bind, and publishes whatever it holds.
                found("the record element <" + record.getLocalName() + "> is nil (xsi:nil), and a record cannot be");
            }
            String type = record.getAttributeValue(XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "type");
            if (type != null && unboundPrefix(type, record)) {
                type = null;
            }
            if (type != null && recordType != null) {
                expectType(recordType, type, record);
            }
        }
        return new Delegate(record);
    }

    /**
     * Whether an xsi:type names its type with a prefix no namespace is bound to: found here, with the element's
     * position, where JAXB fails the record with a Java exception's name and no position.
     */
    private boolean unboundPrefix(String value, XMLStreamReader at) {
        String v = value.strip();
        int colon = v.indexOf(':');
        if (colon <= 0 || at.getNamespaceURI(v.substring(0, colon)) != null) {
            return false;
        }
        found("element <" + at.getLocalName() + "> has xsi:type=\"" + value + "\", whose prefix " + v.substring(0, colon)
                + " is bound to no namespace");
        return true;
    }

    /** The element at {@code depth} has xsi:type={@code value}: checked when JAXB says which class it made. */
    private void expectType(Class<?> declared, String value, XMLStreamReader at) {
        pendingType = declared;
        pendingDepth = depth;
        pendingTypeValue = value;
        String v = value.strip();
        int colon = v.indexOf(':');
        String prefix = colon < 0 ? "" : v.substring(0, colon);
        String ns = at.getNamespaceURI(prefix);
        pendingTypeName = ns == null && !prefix.isEmpty() ? new QName("", v)
                : new QName(ns == null ? "" : ns, v.substring(colon + 1));
    }

    /**
     * An xsi:type on an element bound to a plain value, which JAXB ignores: one naming a built-in
     * type that can be no kind of the declared one is refused. A type of the schema's own is taken
     * on trust, as only the schema knows what it derives from.
     */
    private void builtinType(Set<String> bases, String value) {
        String v = value.strip();
        int colon = v.indexOf(':');
        String ns = reader.getNamespaceURI(colon < 0 ? "" : v.substring(0, colon));
        String local = v.substring(colon + 1);
        if (XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(ns) && !BuiltinTypes.isKindOf(local, bases)) {
            found("element <" + reader.getLocalName() + "> has xsi:type=\"" + value + "\", which is not a kind of its "
                    + "declared type (" + BuiltinTypes.describe(bases) + ")");
        } else if (XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(ns) && bases.contains("anySimpleType")) {
            hexBinaryUnread(local, value);
        }
    }

    /**
     * JAXB reads the text of an element whose xsi:type is xs:hexBinary, where the model binds it as any value
     * (xs:anyType, xs:anySimpleType), as base64: "0A" became no bytes and "0aff" three others, published without a
     * word. Refused instead: there is no telling which bytes JAXB made of which text.
     */
    private void hexBinaryUnread(String type, String value) {
        if ("hexBinary".equals(type)) {
            found("element <" + reader.getLocalName() + "> has xsi:type=\"" + value + "\" where the model holds any "
                    + "value (xs:anyType or xs:anySimpleType), and JAXB would read its hexadecimal text as base64, "
                    + "publishing other bytes; declare the element xs:hexBinary in the schema, or write the value as "
                    + "xs:base64Binary");
        }
    }

    /**
     * Whether JAXB is at the end tag of an empty element marked nil. Keeping a nil element's attributes
     * (its value class inside a JAXBElement), JAXB still converts the element's text, "", and a strict
     * parser refuses it; the value of a nil element is null, which is what JAXB leaves when told to go on.
     */
    boolean atNilEnd() {
        return atNilEnd;
    }

    /** What JAXB dropped first in the last record, or null. */
    String problem() {
        return problem;
    }

    int line() {
        return line;
    }

    int column() {
        return column;
    }

    /**
     * At a nil element's end tag, its JAXBElement is marked nil: JAXB leaves a nil xs:IDREFS (a list)
     * unmarked and empty, and the message said {@code []}, a list that names nothing, where the file
     * said nil.
     */
    @Override
    public void afterUnmarshal(Object target, Object parent) {
        if (atNilEnd && target instanceof JAXBElement<?> element) {
            element.setNil(true);
        }
        List<Object[]> nils = nilItems == null || nilItems.isEmpty() ? null : nilItems.remove(target);
        if (nils != null) {
            putBackNils(target, nils);
        }
    }

    @Override
    public void beforeUnmarshal(Object target, Object parent) {
        if (wildcardDepth != 0 && wildcardDepth == depth && reader != null
                && reader.getEventType() == XMLStreamConstants.START_ELEMENT) {
            wildcardDepth = 0;
            if (target instanceof JAXBElement<?> element) {
                if (wildcardAttribute != null && plain(element.getDeclaredType())) {
                    found("attribute " + wildcardAttribute + " of <" + reader.getLocalName() + "> would be lost: a "
                            + "wildcard lets the element in, and the model binds it by its declaration to a plain value");
                    return;
                }
                if (wildcardNil) {
                    nilDepth = depth;
                    nilElement = reader.getLocalName();
                }
            } else if (wildcardNil && JaxbProperties.isBound(target.getClass())) {
                found("element <" + reader.getLocalName() + "> is nil (xsi:nil), but a wildcard lets it in as a class of "
                        + "the model, which keeps no such mark: it would be published with its content");
                return;
            }
        }
        // JAXB also announces the JAXBElement around a value (a choice's item, an optional nillable element),
        // at the same tag as the value's own class, if it has one.
        if (reader == null || reader.getEventType() != XMLStreamConstants.START_ELEMENT
                || !JaxbProperties.isBound(target.getClass())) {
            return;
        }
        if (pendingType != null && pendingDepth == depth && !pendingType.isInstance(target)) {
            // JAXB binds the type xsi:type names even when it is no kind of the declared one, and the message then
            // holds a value the model's JSON Schema has no room for.
            found("element <" + reader.getLocalName() + "> has xsi:type=\"" + pendingTypeValue
                    + "\", which is not a kind of its declared type " + xmlTypeName(pendingType));
            return;
        }
        if (pendingType != null && pendingDepth == depth && pendingChoice != null) {
            ElementNames.Alternative as = pendingChoice.alternativeOf(target.getClass());
            if (as != null && !as.name().equals(reader.getLocalName())) {
                // A choice's items keep no element name, only their class, and this one's is another alternative's:
                // the message would say <b> where the file said <a xsi:type="...">.
                found("element <" + reader.getLocalName() + "> has xsi:type=\"" + pendingTypeValue + "\", the type of <"
                        + as.name() + ">, another alternative of " + pendingChoice.property() + "; the model keeps "
                        + "only each item's class, so it would be published as <" + as.name() + ">");
                return;
            }
        }
        if (pendingType != null && pendingDepth == depth) {
            QName made = ElementNames.declaredTypeName(target.getClass());
            if (made != null && !made.equals(pendingTypeName)) {
                // JAXB passes over an xsi:type it does not know, or will not take, and binds the declared type: the
                // file said the element is of another type than the message then tells.
                found("element <" + reader.getLocalName() + "> has xsi:type=\"" + pendingTypeValue + "\", which names "
                        + "no type the model knows as a kind of its declared type " + xmlTypeName(pendingType));
                return;
            }
        }
        Plan plan = PLANS.get(target.getClass());
        if (size == frames.length) {
            frames = Arrays.copyOf(frames, size * 2);
        }
        Frame f = frames[size] == null ? (frames[size] = new Frame()) : frames[size];
        f.depth = depth;
        f.name = reader.getLocalName();
        f.plan = plan;
        f.seen = 0;
        f.seenBeyond64 = null;
        f.target = target;
        f.listItems = null;
        size++;
        if (plainDepth == depth) {
            plainDepth = 0; // a class after all (xsi:type, a JAXBElement of a class): its own attributes are checked below
        }
        if (!plan.anyAttribute()) {
            for (int i = 0, n = reader.getAttributeCount(); i < n; i++) {
                String ns = reader.getAttributeNamespace(i);
                // By namespace too: JAXB drops an attribute of a declared local name in another namespace.
                if (!isMarkup(ns) && !plan.attributes().contains(attributeKey(ns, reader.getAttributeLocalName(i)))) {
                    found("attribute " + attributeName(i) + " of <" + reader.getLocalName() + "> is not in the model");
                    return;
                }
            }
        }
    }

    private void found(String what) {
        if (problem == null) {
            problem = what;
            Location at = reader.getLocation();
            line = at == null ? -1 : at.getLineNumber();
            column = at == null ? -1 : at.getColumnNumber();
        }
    }

    /** Watches the events JAXB reads. */
    private final class Delegate extends StreamReaderDelegate {
        Delegate(XMLStreamReader reader) {
            super(reader);
        }

        @Override
        public int next() throws XMLStreamException {
            if (plainDepth != 0) {
                // JAXB has handled the child's start tag, and no class claimed it: its attributes had nowhere to go.
                found("attribute " + plainAttribute + " of <" + plainElement + "> is not in the model");
                plainDepth = 0;
            }
            atNilEnd = false;
            int event = super.next();
            switch (event) {
                case XMLStreamConstants.START_ELEMENT -> {
                    depth++;
                    if (simpleDepth != 0 && depth == simpleDepth + 1) {
                        found("element <" + getLocalName() + "> is inside <" + simpleElement + ">, whose xsi:type=\"xs:"
                                + simpleType + "\" holds text only");
                        simpleDepth = 0;
                    }
                    pendingType = null;
                    pendingChoice = null;
                    wildcardDepth = 0;
                    if (nilDepth != 0 && depth == nilDepth + 1) {
                        nilWithContent("element <" + getLocalName() + ">");
                    }
                    if (size > 0 && frames[size - 1].depth == depth - 1) {
                        child(frames[size - 1]);
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    if (simpleDepth != 0 && depth == simpleDepth) {
                        simpleDepth = 0;
                        String wrong = BuiltinTypes.notAValue(simpleType, simpleText.toString());
                        if (wrong != null) {
                            found("element <" + simpleElement + "> has xsi:type=\"xs:" + simpleType + "\", and " + wrong);
                        }
                    }
                    if (nilDepth != 0 && depth == nilDepth) {
                        nilDepth = 0;
                        atNilEnd = true;
                    }
                    if (size > 0 && frames[size - 1].depth == depth) {
                        size--;
                    }
                    depth--;
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                    if (simpleDepth != 0 && depth == simpleDepth) {
                        simpleText.append(getTextCharacters(), getTextStart(), getTextLength());
                    }
                    if (nilDepth != 0 && depth == nilDepth && !isWhiteSpace()) {
                        nilWithContent("text \"" + excerpt(getText()) + "\"");
                    }
                    if (size > 0 && frames[size - 1].depth == depth && !frames[size - 1].plan.text() && !isWhiteSpace()) {
                        found("text \"" + excerpt(getText()) + "\" inside <" + frames[size - 1].name
                                + "> is not in the model, which holds only elements there");
                    }
                }
                default -> {
                }
            }
            return event;
        }

        private void child(Frame parent) {
            String ns = getNamespaceURI() == null ? "" : getNamespaceURI();
            // A name may have several places in one class (a substitution group's member also named on its own).
            // JAXB fills only one of them, always the first the class declares (a superclass's first), which the
            // chain, newest first, holds last.
            Child c = null;
            int places = 0;
            for (Child k = parent.plan.children().get(getLocalName()); k != null; k = k.sameLocalName()) {
                if (k.namespace().equals(ns)) {
                    c = k;
                    places++;
                }
            }
            if (c == null) {
                // An element the class does not name: JAXB reports it, or a wildcard keeps it (see beforeUnmarshal).
                wildcardDepth = depth;
                wildcardAttribute = null;
                wildcardNil = false;
                for (int i = 0, n = getAttributeCount(); i < n; i++) {
                    if (!isMarkup(getAttributeNamespace(i))) {
                        wildcardAttribute = wildcardAttribute == null ? attributeName(i) : wildcardAttribute;
                    } else if ("nil".equals(getAttributeLocalName(i))) {
                        wildcardNil = isTrue(getAttributeValue(i));
                    }
                }
                return;
            }
            if (c.once() >= 0 && seenBefore(parent, c.once())) {
                found((c.choice() == null ? "element <" + getLocalName() + "> appears again, and the model holds one"
                        : "element <" + getLocalName() + "> is a second item of " + c.choice()
                        + ", and the model holds one of them")
                        + (places > 1 ? "; the model has " + places + " places for <" + getLocalName()
                                + ">, and JAXB puts every one in " + (c.choice() == null ? "the first" : c.choice()) : ""));
                return;
            }
            int data = -1;
            boolean nil = false;
            for (int i = 0, n = getAttributeCount(); i < n; i++) {
                if (!isMarkup(getAttributeNamespace(i))) {
                    data = data < 0 ? i : data;
                    if (c.plain() && plainDepth == 0) {
                        plainDepth = depth;
                        plainAttribute = attributeName(i);
                        plainElement = getLocalName();
                    }
                } else if ("nil".equals(getAttributeLocalName(i))) {
                    nil = isTrue(getAttributeValue(i));
                } else if ("type".equals(getAttributeLocalName(i)) && unboundPrefix(getAttributeValue(i), this)) {
                    return;
                } else if ("type".equals(getAttributeLocalName(i)) && c.type() != null) {
                    // Checked when JAXB says which class it made (see beforeUnmarshal).
                    expectType(c.type(), getAttributeValue(i), this);
                    pendingChoice = c.alternatives();
                } else if ("type".equals(getAttributeLocalName(i)) && c.builtinBases() != null) {
                    builtinType(c.builtinBases(), getAttributeValue(i));
                } else if ("type".equals(getAttributeLocalName(i)) && c.anyType()) {
                    anyTypeAsBuiltin(getAttributeValue(i));
                }
            }
            if (simpleDepth == depth && nil) {
                simpleDepth = 0; // a nil one has no text to check
            }
            if (simpleDepth == depth && data >= 0) {
                // JAXB binds it to a plain value, which has no room for its attributes.
                found("attribute " + attributeName(data) + " of <" + getLocalName() + "> would be lost: its xsi:type=\""
                        + "xs:" + simpleType + "\" binds it to a plain value");
                simpleDepth = 0;
                return;
            }
            if (c.nilList() != null) {
                int index = parent.listItems == null ? 0 : parent.listItems.getOrDefault(c.nilList(), ZERO)[0];
                if (parent.listItems == null) {
                    parent.listItems = new HashMap<>();
                }
                int[] count = parent.listItems.computeIfAbsent(c.nilList(), k -> new int[1]);
                count[0]++;
                if (nil && c.nillable() && data < 0) {
                    nilItem(parent.target, c.nilList(), index, count);
                }
            }
            if (nil) {
                if (!c.nillable()) {
                    // JAXB binds it as an empty value ("" for a string) that the file never had.
                    found("element <" + getLocalName() + "> is nil (xsi:nil), and the model does not let it be");
                    return;
                }
                if (data >= 0 && !c.keepsNilAttributes()) {
                    // JAXB keeps a nil element's attributes only in a JAXBElement of its own; here it binds null.
                    found("attribute " + attributeName(data) + " of <" + getLocalName() + "> would be lost: the element "
                            + "is nil (xsi:nil), and where the model holds it a nil element keeps no attributes");
                    return;
                }
                nilDepth = depth;
                nilElement = getLocalName();
            }
        }
    }

    /**
     * A nil item of a list of plain values ({@code <n xsi:nil="true"/>} among {@code <n>1</n>}s): JAXB
     * leaves it out of a list it binds through an adapter (as a compiled model's strict parsers are), so
     * the message said [1,3] where the file said 1, nil, 3. It is put back as null, at its place, once
     * JAXB has made the list, unless the list holds every item read ({@code count}), nil ones included.
     */
    private void nilItem(Object holder, Field list, int index, int[] count) {
        if (nilItems == null) {
            nilItems = new IdentityHashMap<>();
        }
        nilItems.computeIfAbsent(holder, k -> new ArrayList<>()).add(new Object[] {list, index, count});
    }

    @SuppressWarnings("unchecked")
    private static void putBackNils(Object holder, List<Object[]> nils) {
        try {
            for (Object[] nil : nils) { // in document order, so each index counts the nils put back before it
                Field f = (Field) nil[0];
                f.setAccessible(true);
                List<Object> items = (List<Object>) f.get(holder);
                if (items == null) {
                    items = new ArrayList<>();
                    f.set(holder, items);
                }
                if (items.size() < ((int[]) nil[2])[0]) {
                    items.add(Math.min((Integer) nil[1], items.size()), null);
                }
            }
        } catch (IllegalAccessException | ClassCastException e) {
            throw new IllegalStateException("cannot put a nil item back into " + nils.get(0)[0] + ": " + e, e);
        }
    }

    /** An xsi:type on an xs:anyType element: one naming a built-in type has its text checked (see simpleDepth). */
    private void anyTypeAsBuiltin(String value) {
        String v = value.strip();
        int colon = v.indexOf(':');
        // xs:anyType itself keeps the element open content, as it is without an xsi:type.
        if (XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(reader.getNamespaceURI(colon < 0 ? "" : v.substring(0, colon)))
                && BuiltinTypes.isSimpleType(v.substring(colon + 1))) {
            hexBinaryUnread(v.substring(colon + 1), value);
            simpleDepth = depth;
            simpleType = v.substring(colon + 1);
            simpleElement = reader.getLocalName();
            simpleText.setLength(0);
        }
    }

    private void nilWithContent(String content) {
        found("element <" + nilElement + "> is nil (xsi:nil) but holds " + content + ", which would be lost: "
                + "a nil element has no content");
        nilDepth = 0;
    }

    /** A class's XML type name as a schema writes it, for messages; the Java name when it has none. */
    private static String xmlTypeName(Class<?> type) {
        XmlType t = type.getAnnotation(XmlType.class);
        return t == null || t.name().isEmpty() || "##default".equals(t.name()) ? type.getSimpleName() : t.name();
    }

    private static boolean seenBefore(Frame f, int index) {
        if (index < 64) {
            long bit = 1L << index;
            boolean seen = (f.seen & bit) != 0;
            f.seen |= bit;
            return seen;
        }
        if (f.seenBeyond64 == null) {
            f.seenBeyond64 = new HashSet<>();
        }
        return !f.seenBeyond64.add(index);
    }

    private String attributeName(int i) {
        return ElementNames.attributeName(reader.getAttributeName(i));
    }

    /** An attribute as the plan holds it: its local name alone when in no namespace, as most are. */
    private static String attributeKey(String namespace, String localName) {
        return namespace == null || namespace.isEmpty() ? localName : "{" + namespace + "}" + localName;
    }

    /** xsi:type, xsi:nil and the schema location hints steer JAXB; they are not data. */
    private static boolean isMarkup(String namespace) {
        return XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI.equals(namespace);
    }

    /** An xsi:nil's value; one that is no xs:boolean ("yes"), which JAXB took for false, is found. */
    private boolean isTrue(String xsdBoolean) {
        String v = xsdBoolean.strip();
        if (!(v.equals("true") || v.equals("1") || v.equals("false") || v.equals("0"))) {
            found("attribute xsi:nil of <" + reader.getLocalName() + "> is " + XsdText.quote(xsdBoolean)
                    + ", which is not an xs:boolean (true, false, 1 or 0)");
        }
        return v.equals("true") || v.equals("1");
    }

    private static String excerpt(String text) {
        String t = text.strip();
        return t.length() <= 40 ? t : t.substring(0, 40) + "...";
    }

    private static Plan plan(Class<?> type) {
        Set<String> attributes = new HashSet<>();
        boolean anyAttribute = false;
        boolean text = false;
        Map<String, Child> children = new HashMap<>();
        int once = 0;
        for (JaxbProperty p : JaxbProperties.of(type)) {
            switch (p.kind()) {
                case ATTRIBUTE -> attributes.add(attributeKey(
                        ElementNames.attributeNamespace(p.field(), p.field().getDeclaringClass()), p.name()));
                case OTHER_ATTRIBUTES -> anyAttribute = true;
                case TEXT -> text = true;
                case CHOICE -> {
                    text |= p.names().mixed();
                    // JAXB keeps the last item of a choice held once: any second one, of any of its names, is lost.
                    int index = ElementNames.repeats(p.field()) ? -1 : once++;
                    for (ElementNames.Alternative a : p.names().alternatives()) {
                        Class<?> held = a.type();
                        add(children, a.name(), new Child(a.namespace(), index, plain(held), a.nillable(), false,
                                p.name(), checkedType(p.field(), held), simpleBases(p.field(), held, false), p.names(),
                                held == Object.class, null, null));
                    }
                    for (ElementNames.Declared d : p.names().declared()) {
                        Class<?> held = d.type() == XmlElementRef.DEFAULT.class ? itemClass(p.field()) : d.type();
                        add(children, d.name().getLocalPart(), new Child(d.name().getNamespaceURI(), index,
                                plain(held), d.wrapped(), d.wrapped(), p.name(), checkedType(p.field(), held),
                                simpleBases(p.field(), held, false), null, held == Object.class, null, null));
                    }
                }
                case ELEMENT -> {
                    Field f = p.field();
                    boolean repeats = ElementNames.repeats(f);
                    Type item = ElementNames.itemTypeOf(f);
                    boolean wrapped = item instanceof ParameterizedType w && w.getRawType() == JAXBElement.class;
                    XmlElement element = f.getAnnotation(XmlElement.class);
                    // xjc keeps an optional nillable element as a JAXBElement, which can say nil.
                    boolean nillable = (element != null && element.nillable()) || wrapped;
                    Type value = wrapped ? ((ParameterizedType) item).getActualTypeArguments()[0] : item;
                    // By namespace too: a wildcard may let in an element of the same local name from elsewhere.
                    String ns = ElementNames.elementNamespace(f, f.getDeclaringClass());
                    Class<?> valueClass = value instanceof Class<?> c ? c : null;
                    add(children, p.name(), new Child(ns, repeats ? -1 : once++, plain(value), nillable, wrapped, null,
                            checkedType(f, valueClass), simpleBases(f, valueClass, true), null,
                            valueClass == Object.class,
                            repeats && nillable && !wrapped && plain(value) && !JaxbProperties.isXsList(f) ? f : null,
                            null));
                }
            }
        }
        return new Plan(Set.copyOf(attributes), anyAttribute, text, Map.copyOf(children));
    }

    /**
     * The class an xsi:type on the element must name a kind of, or null when that is not checked: a plain
     * value, Object, or a type an adapter stands between (JAXB then makes the adapter's class, not the field's).
     */
    private static Class<?> checkedType(Field f, Class<?> type) {
        if (type == null || plain(type) || type == Object.class || type == JAXBElement.class || type.isInterface()
                || (f != null && f.isAnnotationPresent(XmlJavaTypeAdapter.class))
                || type.isAnnotationPresent(XmlJavaTypeAdapter.class)
                || (type.getPackage() != null && (type.getPackage().isAnnotationPresent(XmlJavaTypeAdapter.class)
                        || type.getPackage().isAnnotationPresent(XmlJavaTypeAdapters.class)))) {
            return null;
        }
        return type;
    }

    /**
     * For an element bound to a plain value, the built-in types an xsi:type on it must name a kind of;
     * null when that is not checked: not a plain value, or an xs:list, whose type no item's tells.
     * A choice's field has one {@code @XmlSchemaType} for all its items, so theirs is not read.
     */
    private static Set<String> simpleBases(Field f, Class<?> value, boolean ownField) {
        if (value == null || !plain(value) || JaxbProperties.isXsList(f)) {
            return null;
        }
        return BuiltinTypes.bases(ownField ? f : null, value);
    }

    /** The class of one item of the field: its own, or a list's item class; null when that is not a class. */
    private static Class<?> itemClass(Field f) {
        return ElementNames.itemTypeOf(f) instanceof Class<?> c ? c : null;
    }

    private static void add(Map<String, Child> children, String localName, Child child) {
        children.merge(localName, child, (had, added) -> added.with(had));
    }

    /**
     * Bound to a value with no room for attributes: text, a number, a date, an enum. Anything else
     * (a class, DOM, a type variable) may keep attributes and is not looked at here.
     */
    private static boolean plain(Type t) {
        // The simple types the encoder writes as they are, one list for both (this one had lost URL and File).
        return t instanceof Class<?> c && (Adapters.isSimple(c) || Number.class.isAssignableFrom(c));
    }
}
