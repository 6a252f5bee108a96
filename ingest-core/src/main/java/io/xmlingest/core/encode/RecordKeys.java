package io.xmlingest.core.encode;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.jaxb.Adapters;
import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import io.xmlingest.core.jaxb.References;
import io.xmlingest.core.jaxb.XmlValues;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * Reads a record's message key from one of its attributes or child elements, chosen by XML
 * local name (the {@code record.key} setting). The property is resolved once, when the
 * pipeline starts, so a wrong name stops start-up instead of failing every record.
 */
public final class RecordKeys {

    private final JaxbProperty property;
    private final boolean reference;
    private final XmlAdapter<?, ?> adapter;
    // For an element of simple content with attributes (UBL's <cbc:ID schemeID="...">123</cbc:ID>): its text, the
    // key, and that text's adapter; null otherwise.
    private final JaxbProperty text;
    private final XmlAdapter<?, ?> textAdapter;

    private RecordKeys(JaxbProperty property, boolean reference, XmlAdapter<?, ?> adapter) {
        this(property, reference, adapter, null, null);
    }

    private RecordKeys(JaxbProperty property, boolean reference, XmlAdapter<?, ?> adapter, JaxbProperty text,
                       XmlAdapter<?, ?> textAdapter) {
        this.property = property;
        this.reference = reference;
        this.adapter = adapter;
        this.text = text;
        this.textAdapter = textAdapter;
    }

    public static RecordKeys of(Class<?> recordType, String name) {
        List<JaxbProperty> properties = JaxbProperties.of(recordType);
        // The member the JSON writes under that name: of an attribute and an element of one name, the element (the
        // attribute is @name there), as schema-less mode keys it; of two elements of one local name, the one of the
        // class's namespace ({uri}name names the other).
        int at = -1;
        for (int i = 0; i < properties.size() && at < 0; i++) {
            if (properties.get(i).kind() != JaxbProperty.Kind.TEXT && properties.get(i).json().equals(name)) {
                at = i;
            }
        }
        // Else by XML local name, an element before an attribute.
        boolean shared = properties.stream().anyMatch(p -> p.name().equals(name) && p.kind() != JaxbProperty.Kind.ATTRIBUTE
                && p.kind() != JaxbProperty.Kind.TEXT);
        for (int i = 0; i < properties.size() && at < 0; i++) {
            JaxbProperty p = properties.get(i);
            if (p.name().equals(name) && p.kind() != JaxbProperty.Kind.TEXT
                    && !(shared && p.kind() == JaxbProperty.Kind.ATTRIBUTE)) {
                at = i;
            }
        }
        if (at < 0) {
            throw new ConfigException(IngestSettings.RECORD_KEY.key(), IngestSettings.RECORD_KEY.key() + " '" + name
                    + "' is not an attribute or element of " + recordType.getName() + "; it has: "
                    + properties.stream().map(JaxbProperty::json).collect(Collectors.joining(", ")));
        }
        JaxbProperty p = properties.get(at);
        boolean reference = References.of(recordType)[at];
        XmlAdapter<?, ?> adapter = Adapters.of(recordType)[at];
        Class<?> simpleContent = adapter == null ? simpleContentClass(p.field()) : null;
        if (!reference && simpleContent != null && p.kind() == JaxbProperty.Kind.ELEMENT) {
            List<JaxbProperty> inside = JaxbProperties.of(simpleContent);
            for (int i = 0; i < inside.size(); i++) {
                if (inside.get(i).kind() == JaxbProperty.Kind.TEXT) {
                    return new RecordKeys(p, false, null, inside.get(i), Adapters.of(simpleContent)[i]);
                }
            }
        }
        if (!reference && (JaxbProperties.isBound(p.field().getType()) || holdsStructure(p.field(), adapter)
                || java.util.Collection.class.isAssignableFrom(p.field().getType())
                || (p.kind() == JaxbProperty.Kind.CHOICE && p.names().wildcard())
                || p.kind() == JaxbProperty.Kind.OTHER_ATTRIBUTES)) {
            throw new ConfigException(IngestSettings.RECORD_KEY.key(), IngestSettings.RECORD_KEY.key()
                    + " '" + name + "' names a structured or repeated element of " + recordType.getSimpleName()
                    + "; a key must be a single simple value");
        }
        return new RecordKeys(p, reference, adapter);
    }

    /** The key's UTF-8 bytes, or null if the record has no value for it. */
    public byte[] keyOf(Object record) {
        // Keys are the value as written in XML: an enum's XML value, not its Java name; a decimal
        // never in exponent form; never a JAXBElement's toString.
        Object value = property.get(record);
        if (value != null && adapter != null) {
            value = Adapters.marshal(adapter, value);
        }
        if (value instanceof JAXBElement<?> element) {
            value = element.isNil() ? null : element.getValue();
        }
        if (text != null && value != null) {
            value = text.get(value);
            if (value != null && textAdapter != null) {
                value = Adapters.marshal(textAdapter, value);
            }
        }
        // An xs:IDREF is bound to the object it names: its key is the ID the file wrote.
        String text = reference && value != null ? References.idOf(value) : XmlValues.text(value);
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The class of an element held once that has text and attributes but no child elements (simple content), as a
     * plain field or in a JAXBElement; null for any other.
     */
    private static Class<?> simpleContentClass(Field f) {
        Type held = f.getGenericType();
        if (held instanceof ParameterizedType p && p.getRawType() == JAXBElement.class) {
            held = p.getActualTypeArguments()[0];
        }
        if (!(held instanceof Class<?> c) || !JaxbProperties.isBound(c)) {
            return null;
        }
        List<JaxbProperty> inside = JaxbProperties.of(c);
        boolean hasText = inside.stream().anyMatch(i -> i.kind() == JaxbProperty.Kind.TEXT);
        boolean onlyAttributes = inside.stream().allMatch(i -> i.kind() == JaxbProperty.Kind.TEXT
                || i.kind() == JaxbProperty.Kind.ATTRIBUTE || i.kind() == JaxbProperty.Kind.OTHER_ATTRIBUTES);
        return hasText && onlyAttributes ? c : null;
    }

    /**
     * Whether the element's value is a structure however it is held: a JAXBElement of a bound class
     * (an optional nillable element), or what an adapter makes of it for XML.
     */
    private static boolean holdsStructure(Field f, XmlAdapter<?, ?> adapter) {
        Type held = adapter != null ? Adapters.valueTypeOf(adapter.getClass()) : f.getGenericType();
        if (held instanceof ParameterizedType p && p.getRawType() == JAXBElement.class) {
            held = p.getActualTypeArguments()[0];
        }
        return held instanceof Class<?> c && JaxbProperties.isBound(c);
    }

    public String propertyName() {
        return property.name();
    }
}
