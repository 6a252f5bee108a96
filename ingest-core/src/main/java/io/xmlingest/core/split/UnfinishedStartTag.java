package io.xmlingest.core.split;

import java.lang.reflect.Field;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;

/**
 * The innermost element Woodstox had open when it failed. Woodstox takes an element's name onto its element stack
 * before it reads the attributes, so a fault in a start tag (a bare {@code &} in an attribute value, an attribute over
 * xml.max.attribute.size) leaves that element on top; its API, still at the event before, does not say so. Read
 * through the field only to name the record a fault is in; null when the reader is not Woodstox's own, or the field
 * is not there (another version).
 */
final class UnfinishedStartTag {
    private static final Field STACK = stackField();

    private UnfinishedStartTag() {
    }

    /**
     * The top of the reader's element stack, its prefix resolved in the scope around it; null when it cannot be read,
     * or its prefix is bound nowhere around it. The element's own namespace is resolved only after its attributes,
     * its declarations among them, and the stack reuses its entries without clearing it: read before, it is another
     * element's. So a tag that binds its own prefix (or default namespace) to something else than the scope around it
     * is read as the scope has it.
     */
    static QName top(XMLStreamReader reader) {
        if (STACK == null || !(reader instanceof com.ctc.wstx.sr.BasicStreamReader)) {
            return null;
        }
        try {
            com.ctc.wstx.sr.InputElementStack stack = (com.ctc.wstx.sr.InputElementStack) STACK.get(reader);
            if (stack == null || stack.getDepth() == 0 || stack.getLocalName() == null) {
                return null;
            }
            String prefix = stack.getPrefix();
            String ns = stack.getNamespaceURI(prefix == null ? "" : prefix);
            return ns == null ? null : new QName(ns, stack.getLocalName(), prefix == null ? "" : prefix);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    private static Field stackField() {
        try {
            Field f = com.ctc.wstx.sr.BasicStreamReader.class.getDeclaredField("mElementStack");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
