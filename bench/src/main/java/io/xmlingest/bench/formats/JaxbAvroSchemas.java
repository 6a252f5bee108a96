package io.xmlingest.bench.formats;

import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import jakarta.xml.bind.annotation.XmlEnumValue;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;
import org.apache.avro.Schema;

/**
 * Derives an Avro schema from JAXB classes, from the same property metadata the JSON encoder
 * walks ({@link JaxbProperties}), so that an Avro value holds exactly what the JSON value holds:
 * the same names, in the same order, with optional values as {@code ["null", T]} unions and
 * repeated elements as arrays.
 *
 * <p>Decimals, dates and times stay strings in their XML lexical form: an {@code xs:decimal}
 * has no fixed scale (Avro's decimal needs one) and an {@code xs:date} may carry a time zone
 * (Avro's date cannot), so any numeric mapping would change values that JSON keeps exactly.
 */
public final class JaxbAvroSchemas {

    private static final Pattern AVRO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Map<Class<?>, Schema> named = new HashMap<>();

    private JaxbAvroSchemas() {
    }

    public static Schema of(Class<?> recordClass) {
        return new JaxbAvroSchemas().record(recordClass);
    }

    private Schema record(Class<?> type) {
        Schema known = named.get(type);
        if (known != null) {
            return known;
        }
        Schema schema = Schema.createRecord(type.getSimpleName(), null, namespace(type), false);
        // Registered before its fields, so a class that contains itself refers to its own name.
        named.put(type, schema);
        List<Schema.Field> fields = new ArrayList<>();
        for (JaxbProperty p : JaxbProperties.of(type)) {
            Schema value = property(p.field(), type);
            boolean optional = !p.required();
            fields.add(optional
                    ? new Schema.Field(avroName(p.name(), type), Schema.createUnion(Schema.create(Schema.Type.NULL), value),
                            null, Schema.Field.NULL_DEFAULT_VALUE)
                    : new Schema.Field(avroName(p.name(), type), value));
        }
        schema.setFields(fields);
        return schema;
    }

    private Schema property(Field field, Class<?> owner) {
        if (isList(field)) {
            Type item = ((ParameterizedType) field.getGenericType()).getActualTypeArguments()[0];
            if (!(item instanceof Class<?> itemClass)) {
                throw new IllegalArgumentException("cannot derive an Avro type for " + owner.getName() + "."
                        + field.getName() + ": items of type " + item.getTypeName());
            }
            return Schema.createArray(value(itemClass, owner, field));
        }
        return value(field.getType(), owner, field);
    }

    private static boolean isList(Field field) {
        return Collection.class.isAssignableFrom(field.getType());
    }

    private Schema value(Class<?> type, Class<?> owner, Field field) {
        if (type == String.class || type == BigDecimal.class || type == BigInteger.class
                || XMLGregorianCalendar.class.isAssignableFrom(type) || type == Duration.class || type == QName.class) {
            // BigInteger: xs:integer is unbounded, a long would refuse values JSON writes.
            return Schema.create(Schema.Type.STRING);
        }
        if (type == Boolean.class || type == boolean.class) {
            return Schema.create(Schema.Type.BOOLEAN);
        }
        if (type == Integer.class || type == int.class || type == Short.class || type == short.class
                || type == Byte.class || type == byte.class) {
            return Schema.create(Schema.Type.INT);
        }
        if (type == Long.class || type == long.class) {
            return Schema.create(Schema.Type.LONG);
        }
        if (type == Double.class || type == double.class) {
            return Schema.create(Schema.Type.DOUBLE);
        }
        if (type == Float.class || type == float.class) {
            return Schema.create(Schema.Type.FLOAT);
        }
        if (type == byte[].class) {
            return Schema.create(Schema.Type.BYTES);
        }
        if (type.isEnum()) {
            return enumeration(type);
        }
        if (JaxbProperties.isBound(type)) {
            return record(type);
        }
        throw new IllegalArgumentException("cannot derive an Avro type for " + owner.getName() + "." + field.getName()
                + " of type " + type.getName());
    }

    private Schema enumeration(Class<?> type) {
        Schema known = named.get(type);
        if (known != null) {
            return known;
        }
        List<String> symbols = new ArrayList<>();
        for (Object constant : type.getEnumConstants()) {
            String xml = xmlValue((Enum<?>) constant);
            if (!AVRO_NAME.matcher(xml).matches()) {
                // Avro symbols are names; an XML value such as "n/a" or "1" can only be carried as text.
                return Schema.create(Schema.Type.STRING);
            }
            symbols.add(xml);
        }
        Schema schema = Schema.createEnum(type.getSimpleName(), null, namespace(type), symbols);
        named.put(type, schema);
        return schema;
    }

    static String xmlValue(Enum<?> constant) {
        try {
            XmlEnumValue v = constant.getDeclaringClass().getField(constant.name()).getAnnotation(XmlEnumValue.class);
            return v != null ? v.value() : constant.name();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String avroName(String xmlName, Class<?> owner) {
        if (!AVRO_NAME.matcher(xmlName).matches()) {
            throw new IllegalArgumentException("XML name " + xmlName + " in " + owner.getName()
                    + " is not a valid Avro field name");
        }
        return xmlName;
    }

    private static String namespace(Class<?> type) {
        return type.getPackageName().isEmpty() ? null : type.getPackageName();
    }
}
