package io.xmlingest.core.jaxb;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlEnumValue;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.GregorianCalendar;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;

/**
 * The XML spelling of simple values bound by JAXB, where Java's own {@code toString} differs:
 * enums by their {@code @XmlEnumValue}, decimals never in exponent form, dates in their lexical
 * form ({@code Date} and {@code Calendar} as xs:dateTime), binary as base64, a {@code char} as
 * the number JAXB reads it from, and the value inside a {@code JAXBElement}.
 */
public final class XmlValues {
    private XmlValues() {
    }

    private static final DatatypeFactory DATATYPES;

    static {
        try {
            DATATYPES = DatatypeFactory.newInstance();
        } catch (DatatypeConfigurationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The JDK's XML datatype factory, the one JAXB itself uses; made once, since each new instance is looked up
     * through the service loader.
     */
    public static DatatypeFactory datatypeFactory() {
        return DATATYPES;
    }

    private static final ClassValue<String[]> ENUM_NAMES = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            String[] names = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
                names[i] = annotated(type, ((Enum<?>) constants[i]).name());
            }
            return names;
        }
    };

    /** The XML value of an enum constant: its {@code @XmlEnumValue}, or its name when it has none. */
    public static String enumValue(Enum<?> e) {
        return ENUM_NAMES.get(e.getDeclaringClass())[e.ordinal()];
    }

    /** The value as XML would write it; null for null and for a nil {@code JAXBElement}. */
    public static String text(Object value) {
        if (value instanceof JAXBElement<?> element) {
            return text(element.getValue());
        } else if (value == null) {
            return null;
        } else if (value instanceof String s) {
            return s;
        } else if (value instanceof Enum<?> e) {
            return enumValue(e);
        } else if (value instanceof BigDecimal d) {
            return d.toPlainString();
        } else if (value instanceof XMLGregorianCalendar c) {
            return c.toXMLFormat();
        } else if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        } else if (value instanceof ForeignReference r) {
            return r.id();
        } else if (value instanceof Character c) {
            return Integer.toString(c); // an xs:unsignedShort to JAXB
        } else if (value instanceof java.util.Date d) {
            // An instant: JAXB keeps no zone in a Date, so it is written in UTC (a java.sql.Date has no toInstant()).
            GregorianCalendar utc = new GregorianCalendar(java.util.TimeZone.getTimeZone("UTC"));
            utc.setGregorianChange(new java.util.Date(Long.MIN_VALUE));
            utc.setTimeInMillis(d.getTime());
            return DATATYPES.newXMLGregorianCalendar(utc).toXMLFormat();
        } else if (value instanceof java.util.Calendar c) {
            return DATATYPES.newXMLGregorianCalendar(gregorian(c)).toXMLFormat();
        }
        return value.toString();
    }

    private static GregorianCalendar gregorian(java.util.Calendar c) {
        if (c instanceof GregorianCalendar g) {
            return g;
        }
        GregorianCalendar g = new GregorianCalendar(c.getTimeZone());
        g.setTimeInMillis(c.getTimeInMillis());
        return g;
    }

    private static String annotated(Class<?> type, String constant) {
        try {
            XmlEnumValue value = type.getField(constant).getAnnotation(XmlEnumValue.class);
            return value == null ? constant : value.value();
        } catch (NoSuchFieldException e) {
            return constant;
        }
    }
}
