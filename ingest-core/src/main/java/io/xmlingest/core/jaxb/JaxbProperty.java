package io.xmlingest.core.jaxb;

import java.lang.reflect.Field;
import javax.xml.namespace.QName;

/**
 * One property of a JAXB-bound class as it appears in XML.
 *
 * @param name     the XML local name (attribute or element); "value" for an element's text content;
 *                 the field's name for a {@link Kind#OTHER_ATTRIBUTES} and for a {@link Kind#CHOICE}
 *                 other than a substitution group's head, which have no XML name of their own
 * @param kind     where the property lives in XML
 * @param required whether the schema requires it (xjc marks required="true")
 * @param field    the field that holds it
 * @param absent   the value when the field is null: a schema default of an attribute, which xjc
 *                 keeps only in the getter; null when there is none
 * @param names    for a {@link Kind#CHOICE}, how its items are named; null otherwise
 * @param element  for an {@link Kind#ELEMENT} held as a JAXBElement ({@code @XmlElementRef}), the
 *                 element's qualified name, which every item must have; null otherwise
 * @param json     the name the property is written under in JSON: its {@code name}, but where another
 *                 property of the class has that name too ({@code @name} for an attribute, {@code {uri}name}
 *                 for one of another namespace; see {@link JaxbProperties})
 * @param namespace the namespace of the property's attribute or element ("" for none); null where it has no
 *                 single XML name (a choice, the attributes of {@code xs:anyAttribute}, the text)
 */
public record JaxbProperty(String name, Kind kind, boolean required, Field field, Object absent, ElementNames names,
                           QName element, String json, String namespace) {

    public enum Kind {
        ATTRIBUTE,
        /** Attributes the schema does not name ({@code xs:anyAttribute}): a map of name to text. */
        OTHER_ATTRIBUTES,
        ELEMENT,
        /** Elements of several names (choice, mixed content, wildcard), each item under its own name. */
        CHOICE,
        TEXT
    }

    public JaxbProperty(String name, Kind kind, boolean required, Field field) {
        this(name, kind, required, field, null, null, null, name, null);
    }

    public JaxbProperty(String name, Kind kind, boolean required, Field field, Object absent) {
        this(name, kind, required, field, absent, null, null, name, null);
    }

    public JaxbProperty(String name, Kind kind, boolean required, Field field, Object absent, ElementNames names) {
        this(name, kind, required, field, absent, names, null, name, null);
    }

    /** The same property written under another JSON name. */
    JaxbProperty writtenAs(String jsonName) {
        return new JaxbProperty(name, kind, required, field, absent, names, element, jsonName, namespace);
    }

    /** The same property, its attribute or element in {@code uri}. */
    JaxbProperty inNamespace(String uri) {
        return new JaxbProperty(name, kind, required, field, absent, names, element, json, uri);
    }

    public Object get(Object bean) {
        try {
            Object value = field.get(bean);
            return value == null ? absent : value;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field, e);
        }
    }
}
