package io.xmlingest.core.encode;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.xmlingest.core.bind.XmlTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * Writes a schema-less record as JSON: trees as objects, repeated elements as arrays, text as
 * strings, nil as null (the rules are on {@link io.xmlingest.core.bind.XmlTreeBinder}).
 *
 * <p>Unlike a model, a schema-less record is as deep as the file makes it, up to
 * {@code xml.max.depth} (at most 100,000). So the tree is walked with a stack of its own rather
 * than by recursion, which would overflow the thread's stack; Jackson's own nesting limit is
 * raised to match (see {@link JsonRecordEncoder#MAX_NESTING}), leaving the splitter's setting
 * the only limit.
 */
public final class XmlTreeJsonEncoder implements RecordEncoder<XmlTree> {

    private final ByteArrayBuilder buffer = new ByteArrayBuilder(1024);
    private final ArrayDeque<Object> open = new ArrayDeque<>();

    @Override
    public byte[] encode(XmlTree record) {
        buffer.reset();
        open.clear();
        try (JsonGenerator json = JsonRecordEncoder.JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            write(json, record, open);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    /** The object being written and the index of its next property. */
    private static final class Fields {
        final XmlTree tree;
        int next;

        Fields(XmlTree tree) {
            this.tree = tree;
        }
    }

    /**
     * Writes a tree value (an XmlTree, a List, a String or null). {@code open} holds, per open
     * object or array, where to go on: its {@link Fields} or its items' iterator.
     */
    static void write(JsonGenerator json, Object root, ArrayDeque<Object> open) throws IOException {
        Object next = root;
        while (true) {
            if (next instanceof XmlTree tree) {
                json.writeStartObject();
                open.push(new Fields(tree));
            } else if (next instanceof List<?> items) {
                json.writeStartArray();
                open.push(items.iterator());
            } else if (next == null) {
                json.writeNull();
            } else {
                json.writeString((String) next);
            }
            next = null;
            boolean found = false;
            while (!found && !open.isEmpty()) {
                Object top = open.peek();
                if (top instanceof Iterator<?> it) {
                    if (it.hasNext()) {
                        next = it.next();
                        found = true;
                    } else {
                        open.pop();
                        json.writeEndArray();
                    }
                } else {
                    Fields fields = (Fields) top;
                    if (fields.next < fields.tree.size()) {
                        json.writeFieldName(fields.tree.name(fields.next));
                        next = fields.tree.value(fields.next++);
                        found = true;
                    } else {
                        open.pop();
                        json.writeEndObject();
                    }
                }
            }
            if (!found) {
                return;
            }
        }
    }
}
