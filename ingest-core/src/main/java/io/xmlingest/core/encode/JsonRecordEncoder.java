package io.xmlingest.core.encode;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.xmlingest.core.jaxb.Adapters;
import io.xmlingest.core.jaxb.ElementNames;
import io.xmlingest.core.jaxb.ForeignReference;
import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import io.xmlingest.core.jaxb.References;
import io.xmlingest.core.jaxb.XmlValues;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;
import org.w3c.dom.Element;

/**
 * Writes a JAXB-bound record as JSON straight from its fields, with no intermediate tree.
 * Property names are the XML local names; values keep their XML Schema types: numbers and
 * booleans as JSON numbers and booleans, dates and times in their ISO 8601 lexical form, enums
 * by their XML value, repeated elements as arrays, an element's text content as "value".
 * Missing optional values are left out rather than written as null. Where one property holds
 * elements of several names (a choice, mixed content, a wildcard), each item carries its
 * element's name, and content a wildcard let in is written as schema-less mode writes it.
 */
public final class JsonRecordEncoder implements RecordEncoder<Object> {

    /**
     * Twice the largest xml.max.depth: an element level can add an object and an array. Jackson's
     * own limit (1,000) would otherwise reject records of 500 levels that xml.max.depth lets in,
     * with a message that names no setting of ours.
     */
    static final int MAX_NESTING = 200_000;

    /** Shared with the schema-less encoder, so both write text the same way. */
    static final JsonFactory JSON = JsonFactory.builder()
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            // Characters outside the BMP (emoji, rare CJK) as UTF-8, not as escaped surrogate pairs.
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private final ByteArrayBuilder buffer = new ByteArrayBuilder(1024);

    @Override
    public byte[] encode(Object record) {
        buffer.reset();
        try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            writeValue(json, record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    private static void writeObject(JsonGenerator json, Object bean) throws IOException {
        writeObject(json, bean, false);
    }

    /** @param nil whether the element is nil: then it has no text, and JAXB's "" for it is not written */
    private static void writeObject(JsonGenerator json, Object bean, boolean nil) throws IOException {
        json.writeStartObject();
        List<JaxbProperty> properties = JaxbProperties.of(bean.getClass());
        boolean[] references = References.of(bean.getClass());
        XmlAdapter<?, ?>[] adapters = Adapters.of(bean.getClass());
        for (int i = 0; i < properties.size(); i++) {
            JaxbProperty p = properties.get(i);
            Object value = p.get(bean);
            if (value == null || (nil && p.kind() == JaxbProperty.Kind.TEXT)) {
                continue;
            }
            if (adapters[i] != null) {
                value = Adapters.marshal(adapters[i], value);
            }
            if (references[i]) {
                json.writeFieldName(p.json());
                writeReference(json, value);
                continue;
            }
            switch (p.kind()) {
                case CHOICE -> {
                    json.writeFieldName(p.json());
                    writeChoice(json, p.names(), value);
                }
                case OTHER_ATTRIBUTES -> writeOtherAttributes(json, p.json(), (Map<?, ?>) value);
                case ELEMENT -> {
                    json.writeFieldName(p.json());
                    writeElementValue(json, p, value);
                }
                default -> {
                    json.writeFieldName(p.json());
                    writeValue(json, value);
                }
            }
        }
        json.writeEndObject();
    }

    /**
     * What a JAXBElement holds, null when it is nil. JAXB marks a nil element nil but leaves it the
     * value of its text, "", when the element also carries an xsi:type or another attribute: written,
     * that "" would stand for the nil. A nil element's object of attributes is kept (see the README).
     */
    private static Object valueOf(JAXBElement<?> element) {
        Object value = element.getValue();
        return element.isNil() && value != null && !JaxbProperties.isBound(value.getClass()) ? null : value;
    }

    /**
     * What a JAXBElement holds; a nil one as null, or as the object of its attributes (without the
     * "value" JAXB leaves its text as, which would stand for the nil, as for an empty element).
     */
    private static void writeHeld(JsonGenerator json, JAXBElement<?> element) throws IOException {
        Object value = element.getValue();
        if (element.isNil() && value != null && JaxbProperties.isBound(value.getClass())) {
            writeObject(json, value, true);
        } else {
            writeValue(json, valueOf(element));
        }
    }

    /** An xs:IDREF (or a list of them) as the ID it names, not the object JAXB resolved it to. */
    private static void writeReference(JsonGenerator json, Object value) throws IOException {
        if (value instanceof Collection<?> items) {
            json.writeStartArray();
            for (Object item : items) {
                writeReference(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof JAXBElement<?> element) {
            writeReference(json, valueOf(element));
        } else if (value == null) {
            json.writeNull();
        } else {
            json.writeString(References.idOf(value));
        }
    }

    /**
     * A property of one element name. An element of a substitution group declared in an object
     * factory of another package (xjc's default for another namespace) arrives here under its
     * head's property; its name would be lost, so the record is refused instead.
     */
    private static void writeElementValue(JsonGenerator json, JaxbProperty p, Object value) throws IOException {
        if (value instanceof JAXBElement<?> element) {
            // By namespace too: b:channel standing for a:channel must not pass for it.
            if (p.element() != null ? !element.getName().equals(p.element())
                    : !element.getName().getLocalPart().equals(p.name())) {
                throw new IllegalStateException("element " + element.getName() + " stands in for <" + p.name()
                        + "> (a substitution group), but no object factory the encoder looks in (the package of the"
                        + " class holding <" + p.name() + ">, the factories its @XmlSeeAlso names, and those on"
                        + " model.path that declare substitutes) declares it, so its name cannot be written; compile the"
                        + " model into one package (model compile --package NAME)");
            }
            writeHeld(json, element);
        } else if (value instanceof Collection<?> items) {
            json.writeStartArray();
            for (Object item : items) {
                writeElementValue(json, p, item);
            }
            json.writeEndArray();
        } else {
            writeValue(json, value);
        }
    }

    /**
     * Items of a choice, mixed content or wildcard, each as an object of one property named after its
     * element ({"email":"a@example.org"}), so that two alternatives of one type stay apart; pieces
     * of mixed text as strings, in document order.
     */
    private static void writeChoice(JsonGenerator json, ElementNames names, Object value) throws IOException {
        if (value instanceof Collection<?> items) {
            json.writeStartArray();
            for (Object item : items) {
                writeNamedItem(json, names, item);
            }
            json.writeEndArray();
        } else {
            writeNamedItem(json, names, value);
        }
    }

    private static void writeNamedItem(JsonGenerator json, ElementNames names, Object item) throws IOException {
        if (item == null) {
            // A nil alternative of a choice: JAXB binds it to null and keeps no name, so neither can this.
            json.writeNull();
            return;
        }
        if (names.isText(item)) {
            json.writeString((String) item);
            return;
        }
        json.writeStartObject();
        json.writeFieldName(names.nameOf(item));
        if (names.isReference(item)) {
            writeReference(json, item);
        } else {
            writeValue(json, item);
        }
        json.writeEndObject();
    }

    /** Attributes an {@code xs:anyAttribute} let in, as one object of name to text, by name; left out when there are none. */
    private static void writeOtherAttributes(JsonGenerator json, String property, Map<?, ?> attributes)
            throws IOException {
        if (attributes.isEmpty()) {
            return;
        }
        // JAXB keeps them in a HashMap, which has no document order; sorted, equal records give equal values.
        TreeMap<String, Object> sorted = new TreeMap<>();
        for (Map.Entry<?, ?> a : attributes.entrySet()) {
            sorted.put(ElementNames.attributeName((QName) a.getKey()), a.getValue());
        }
        json.writeFieldName(property);
        json.writeStartObject();
        for (Map.Entry<String, Object> a : sorted.entrySet()) {
            json.writeFieldName(a.getKey());
            json.writeString(String.valueOf(a.getValue()));
        }
        json.writeEndObject();
    }

    private static void writeValue(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof String s) {
            json.writeString(s);
        } else if (value instanceof ForeignReference r) {
            // An xs:IDREF declared in an object factory ElementNames does not look in, naming another record's ID.
            json.writeString(r.id());
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            json.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigDecimal d) {
            json.writeNumber(d);
        } else if (value instanceof BigInteger i) {
            json.writeNumber(i);
        } else if (value instanceof Double d) {
            writeFloating(json, d);
        } else if (value instanceof Float f) {
            // Not widened to a double first: that writes 0.1 as 0.10000000149011612, digits the file never had.
            if (f.isNaN() || f.isInfinite()) {
                writeFloating(json, f.doubleValue());
            } else {
                json.writeNumber(f);
            }
        } else if (value instanceof XMLGregorianCalendar c) {
            json.writeString(c.toXMLFormat());
        } else if (value instanceof Character c) {
            // JAXB binds a char as the xs:unsignedShort of its code, and reads "65" into 'A'.
            json.writeNumber((int) c);
        } else if (value instanceof java.util.Date || value instanceof java.util.Calendar) {
            json.writeString(XmlValues.text(value));
        } else if (value instanceof Duration d) {
            json.writeString(d.toString());
        } else if (value instanceof QName q) {
            json.writeString(q.toString());
        } else if (value instanceof byte[] bytes) {
            json.writeBinary(bytes);
        } else if (value instanceof Enum<?> e) {
            json.writeString(XmlValues.enumValue(e));
        } else if (value instanceof Collection<?> items) {
            json.writeStartArray();
            for (Object item : items) {
                writeValue(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof JAXBElement<?> element) {
            writeHeld(json, element);
        } else if (JaxbProperties.isBound(value.getClass())) {
            writeObject(json, value);
        } else if (value instanceof Element dom) {
            // Content the model leaves open (xs:any, xs:anyType) arrives as DOM: written as schema-less mode would.
            XmlTreeJsonEncoder.write(json, DomTrees.valueOf(dom), new ArrayDeque<>());
        } else {
            json.writeString(value.toString());
        }
    }

    private static void writeFloating(JsonGenerator json, double d) throws IOException {
        // JSON has no NaN or infinities; XML Schema does, so keep their XML spelling as a string.
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            json.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "INF" : "-INF");
        } else {
            json.writeNumber(d);
        }
    }
}
