package io.xmlingest.datagen;

import com.ctc.wstx.stax.WstxOutputFactory;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.codehaus.stax2.XMLStreamWriter2;
import java.io.StringWriter;
import org.glassfish.jaxb.runtime.marshaller.NamespacePrefixMapper;

/**
 * Writes a document of records one at a time: each record is marshalled by JAXB as a fragment
 * onto one streaming writer, so memory stays the same whatever the number of records. One
 * record per line, and the record namespace is declared once, on the root element.
 */
public final class RecordXmlWriter<T> implements AutoCloseable {

    private final OutputStream out;
    private final XMLStreamWriter xml;
    private final Marshaller marshaller;
    private final QName recordName;
    private final Class<T> type;

    public RecordXmlWriter(OutputStream target, QName rootName, QName recordName, Class<T> type) {
        this.out = new BufferedOutputStream(target, 1 << 20);
        this.recordName = recordName;
        this.type = type;
        try {
            this.marshaller = JAXBContext.newInstance(type).createMarshaller();
            marshaller.setProperty(Marshaller.JAXB_FRAGMENT, true);
            marshaller.setProperty(Marshaller.JAXB_ENCODING, "UTF-8");
            String ns = recordName.getNamespaceURI();
            marshaller.setProperty("org.glassfish.jaxb.namespacePrefixMapper", new NamespacePrefixMapper() {
                @Override
                public String getPreferredPrefix(String uri, String suggestion, boolean requirePrefix) {
                    return uri.equals(ns) && !requirePrefix ? "" : suggestion;
                }

                @Override
                public String[] getContextualNamespaceDecls() {
                    return new String[] {"", ns};
                }
            });
            WstxOutputFactory factory = new WstxOutputFactory();
            this.xml = factory.createXMLStreamWriter(out, "UTF-8");
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.setDefaultNamespace(rootName.getNamespaceURI());
            xml.writeStartElement("", rootName.getLocalPart(), rootName.getNamespaceURI());
            xml.writeDefaultNamespace(rootName.getNamespaceURI());
        } catch (JAXBException | XMLStreamException e) {
            throw new IllegalStateException("cannot start the document", e);
        }
    }

    public void write(T record) {
        try {
            xml.writeCharacters("\n  ");
            marshaller.marshal(new JAXBElement<>(recordName, type, record), xml);
        } catch (JAXBException | XMLStreamException e) {
            throw new IllegalStateException("cannot write a record", e);
        }
    }

    /** Writes a record's XML text as it is: for records made invalid on purpose, which no marshaller would write. */
    public void writeRaw(String recordXml) {
        try {
            xml.writeCharacters("\n  ");
            ((XMLStreamWriter2) xml).writeRaw(recordXml);
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write a record", e);
        }
    }

    /** A record as standalone XML text, its namespace declared on itself. */
    public String toXml(T record) {
        StringWriter text = new StringWriter(1024);
        try {
            marshaller.marshal(new JAXBElement<>(recordName, type, record), text);
        } catch (JAXBException e) {
            throw new IllegalStateException("cannot write a record", e);
        }
        return text.toString();
    }

    @Override
    public void close() {
        try {
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
            out.write('\n');
            out.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot finish the document", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
