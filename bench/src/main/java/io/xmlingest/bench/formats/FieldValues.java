package io.xmlingest.bench.formats;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Decodes JSON and Avro values the way a consumer would, and reduces either to the same plain
 * tree (maps in field order, lists, and every scalar as its text), so that the two formats can be
 * compared field by field: the proof that the derived Avro schema carries what JSON carries.
 */
public final class FieldValues {

    // Decimals exactly as written: a double would round them, and the tree would strip 116460.30 to 116460.3.
    private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES).build();

    private final GenericDatumReader<GenericRecord> avroReader;
    private BinaryDecoder decoder;
    private GenericRecord reuse;

    public FieldValues(Schema avroSchema) {
        this.avroReader = new GenericDatumReader<>(avroSchema);
    }

    public JsonNode parseJson(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes into a reused record, as a consumer's loop would; read it before the next call. */
    public GenericRecord decodeAvro(byte[] value) {
        decoder = DecoderFactory.get().binaryDecoder(value, decoder);
        try {
            reuse = avroReader.read(reuse, decoder);
            if (!decoder.isEnd()) {
                throw new IllegalStateException("Avro value has bytes left after its record");
            }
            return reuse;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Object fromJson(byte[] value) {
        return plain(parseJson(value));
    }

    public Object fromAvro(byte[] value) {
        return plain((Object) decodeAvro(value));
    }

    private static Object plain(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isNull()) {
                    map.put(e.getKey(), plain(e.getValue()));
                }
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(item -> list.add(plain(item)));
            return list;
        }
        if (node.isBigDecimal()) {
            return node.decimalValue().toPlainString();
        }
        return node.asText();
    }

    private static Object plain(Object avro) {
        if (avro instanceof GenericRecord r) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Schema.Field f : r.getSchema().getFields()) {
                Object v = r.get(f.pos());
                if (v != null) {
                    map.put(f.name(), plain(v));
                }
            }
            return map;
        }
        if (avro instanceof GenericData.Array<?> || avro instanceof List<?>) {
            List<Object> list = new ArrayList<>();
            for (Object item : (List<?>) avro) {
                list.add(plain(item));
            }
            return list;
        }
        if (avro instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return String.valueOf(avro);
    }
}
