package io.xmlingest.core.encode;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.xmlingest.core.bind.XmlTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Writes a schema-less record as JSON: trees as objects, repeated elements as arrays, text as strings. */
public final class XmlTreeJsonEncoder implements RecordEncoder<XmlTree> {

    private final ByteArrayBuilder buffer = new ByteArrayBuilder(1024);

    @Override
    public byte[] encode(XmlTree record) {
        buffer.reset();
        try (JsonGenerator json = JsonRecordEncoder.JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            write(json, record);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    private static void write(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof String text) {
            json.writeString(text);
        } else if (value instanceof XmlTree tree) {
            json.writeStartObject();
            for (int i = 0; i < tree.size(); i++) {
                json.writeFieldName(tree.name(i));
                write(json, tree.value(i));
            }
            json.writeEndObject();
        } else {
            json.writeStartArray();
            for (Object item : (List<?>) value) {
                write(json, item);
            }
            json.writeEndArray();
        }
    }
}
