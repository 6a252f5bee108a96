package io.xmlingest.core.encode;

import com.ctc.wstx.stax.WstxInputFactory;
import io.xmlingest.core.bind.XmlTreeBinder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.RecordRejectedException;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.dom.DOMSource;
import org.w3c.dom.Element;

/**
 * Content that matched an {@code xs:any} wildcard arrives from JAXB as a DOM element; it is read
 * back with the schema-less rules, so a model's open parts and schema-less records look alike.
 */
final class DomTrees {
    private DomTrees() {
    }

    private static final XMLInputFactory READERS = new WstxInputFactory();

    /** The element's value as schema-less mode writes it: text, null (nil), or a tree. */
    static Object valueOf(Element element) {
        try {
            XMLStreamReader reader = READERS.createXMLStreamReader(new DOMSource(element));
            try {
                while (reader.getEventType() != XMLStreamConstants.START_ELEMENT) {
                    reader.next();
                }
                return new XmlTreeBinder().bindValue(reader, ErrorLocation.ofFile("(wildcard content)"));
            } catch (RecordRejectedException e) {
                // The record's own position is added by the caller; this one names no file.
                throw new IllegalArgumentException(e.reason().replaceFirst("^record does not bind: ", ""), e);
            } finally {
                reader.close();
            }
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot read the content of " + element.getTagName() + ": " + e.getMessage(), e);
        }
    }
}
