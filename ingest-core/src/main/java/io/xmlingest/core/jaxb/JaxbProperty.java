package io.xmlingest.core.jaxb;

import java.lang.reflect.Field;

/**
 * One property of a JAXB-bound class as it appears in XML.
 *
 * @param name     the XML local name (attribute or element); "value" for an element's text content
 * @param kind     where the property lives in XML
 * @param required whether the schema requires it (xjc marks required="true")
 * @param field    the field that holds it
 */
public record JaxbProperty(String name, Kind kind, boolean required, Field field) {

    public enum Kind { ATTRIBUTE, ELEMENT, TEXT }

    public Object get(Object bean) {
        try {
            return field.get(bean);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field, e);
        }
    }
}
