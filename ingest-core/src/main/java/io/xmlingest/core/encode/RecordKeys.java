package io.xmlingest.core.encode;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import io.xmlingest.core.jaxb.XmlValues;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * Reads a record's message key from one of its attributes or child elements, chosen by XML
 * local name (the {@code record.key} setting). The property is resolved once, when the
 * pipeline starts, so a wrong name stops start-up instead of failing every record.
 */
public final class RecordKeys {

    private final JaxbProperty property;

    private RecordKeys(JaxbProperty property) {
        this.property = property;
    }

    public static RecordKeys of(Class<?> recordType, String name) {
        for (JaxbProperty p : JaxbProperties.of(recordType)) {
            if (p.name().equals(name) && p.kind() != JaxbProperty.Kind.TEXT) {
                if (JaxbProperties.isBound(p.field().getType())
                        || java.util.Collection.class.isAssignableFrom(p.field().getType())
                        || (p.kind() == JaxbProperty.Kind.CHOICE && p.names().wildcard())
                        || p.kind() == JaxbProperty.Kind.OTHER_ATTRIBUTES) {
                    throw new ConfigException(IngestSettings.RECORD_KEY.key(), IngestSettings.RECORD_KEY.key()
                            + " '" + name + "' names a structured or repeated element of " + recordType.getSimpleName()
                            + "; a key must be a single simple value");
                }
                return new RecordKeys(p);
            }
        }
        throw new ConfigException(IngestSettings.RECORD_KEY.key(), IngestSettings.RECORD_KEY.key() + " '" + name
                + "' is not an attribute or element of " + recordType.getName() + "; it has: "
                + JaxbProperties.of(recordType).stream().map(JaxbProperty::name).collect(Collectors.joining(", ")));
    }

    /** The key's UTF-8 bytes, or null if the record has no value for it. */
    public byte[] keyOf(Object record) {
        // Keys are the value as written in XML: an enum's XML value, not its Java name; a decimal
        // never in exponent form; never a JAXBElement's toString.
        String text = XmlValues.text(property.get(record));
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    public String propertyName() {
        return property.name();
    }
}
