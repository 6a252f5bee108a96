package io.xmlingest.bench.formats;

import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.xml.datatype.XMLGregorianCalendar;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro binary, schema-less on the wire (the schema is {@link JaxbAvroSchemas}' derivation, known
 * to both sides, as a schema registry would arrange; its id would add 5 bytes per message).
 * Written straight from the bound record's fields, as the JSON encoder does, with no
 * intermediate GenericRecord.
 */
public final class AvroValueFormat implements ValueFormat {

    private final Schema schema;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
    private BinaryEncoder out;
    private final Map<Class<?>, List<JaxbProperty>> properties = new ConcurrentHashMap<>();
    // The XML value of a constant is an annotation lookup; once per constant, not per record.
    private final Map<Enum<?>, Integer> ordinals = new ConcurrentHashMap<>();

    public AvroValueFormat(Class<?> recordClass) {
        this.schema = JaxbAvroSchemas.of(recordClass);
    }

    public Schema schema() {
        return schema;
    }

    @Override
    public String name() {
        return "avro";
    }

    @Override
    public byte[] encode(Source record) {
        buffer.reset();
        out = EncoderFactory.get().binaryEncoder(buffer, out);
        try {
            writeRecord(schema, record.bound());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    private void writeRecord(Schema recordSchema, Object bean) throws IOException {
        List<JaxbProperty> props = properties.computeIfAbsent(bean.getClass(), JaxbProperties::of);
        List<Schema.Field> fields = recordSchema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            write(fields.get(i).schema(), props.get(i).get(bean), fields.get(i).name());
        }
    }

    private void write(Schema s, Object value, String field) throws IOException {
        if (value == null && s.getType() != Schema.Type.UNION && s.getType() != Schema.Type.NULL) {
            throw new IllegalStateException("required value " + field + " is missing");
        }
        switch (s.getType()) {
            case UNION -> {
                // Derived unions are always ["null", T].
                if (value == null) {
                    out.writeIndex(0);
                } else {
                    out.writeIndex(1);
                    write(s.getTypes().get(1), value, field);
                }
            }
            case NULL -> out.writeNull();
            case STRING -> out.writeString(text(value));
            case BOOLEAN -> out.writeBoolean((Boolean) value);
            case INT -> out.writeInt(((Number) value).intValue());
            case LONG -> out.writeLong(((Number) value).longValue());
            case DOUBLE -> out.writeDouble(((Number) value).doubleValue());
            case FLOAT -> out.writeFloat(((Number) value).floatValue());
            case BYTES -> out.writeBytes((byte[]) value);
            case ENUM -> out.writeEnum(ordinals.computeIfAbsent((Enum<?>) value,
                    e -> s.getEnumOrdinal(JaxbAvroSchemas.xmlValue(e))));
            case ARRAY -> {
                Collection<?> items = (Collection<?>) value;
                out.writeArrayStart();
                out.setItemCount(items.size());
                for (Object item : items) {
                    out.startItem();
                    write(s.getElementType(), item, field);
                }
                out.writeArrayEnd();
            }
            case RECORD -> writeRecord(s, value);
            default -> throw new IllegalStateException("no writer for Avro type " + s.getType() + " of " + field);
        }
    }

    /** The same text the JSON encoder writes for values that have no Avro type of their own. */
    private static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof XMLGregorianCalendar c) {
            return c.toXMLFormat();
        }
        if (value instanceof Enum<?> e) {
            return JaxbAvroSchemas.xmlValue(e);
        }
        return value.toString();
    }
}
