package io.xmlingest.core.bind;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Compiles the XML Schema files named by {@code record.schema} into one {@link Schema}, once at
 * start-up: a schema that does not compile stops the command before any file is read. A schema
 * may include or import other local files, but nothing it names over the network is fetched.
 */
public final class RecordSchemas {

    private static final Logger LOG = LoggerFactory.getLogger(RecordSchemas.class);

    private RecordSchemas() {
    }

    /** The compiled schema, or null when {@code files} is empty. */
    public static Schema compile(List<String> files) {
        if (files.isEmpty()) {
            return null;
        }
        String key = IngestSettings.RECORD_SCHEMA.key();
        Source[] sources = new Source[files.size()];
        for (int i = 0; i < sources.length; i++) {
            Path file = Path.of(files.get(i));
            if (!Files.isReadable(file)) {
                throw new ConfigException(key, key + ": cannot read schema file " + file.toAbsolutePath());
            }
            sources[i] = new StreamSource(file.toFile());
        }
        try {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "file");
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            SAXParseException[] unread = new SAXParseException[1];
            factory.setErrorHandler(new org.xml.sax.ErrorHandler() {
                @Override
                public void warning(SAXParseException e) {
                    // A schema an include or import names that cannot be read is only a warning to the factory: a
                    // location is a hint, and a schema may not need what it names. If the schema then fails, this
                    // is the cause to name, not the types it lacks.
                    if (unread[0] == null && String.valueOf(e.getMessage()).startsWith("schema_reference.4")) {
                        unread[0] = e;
                    }
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            try {
                Schema schema = factory.newSchema(sources);
                if (unread[0] != null) {
                    LOG.warn("{}: schema {} line {}: {}; the schema compiled without it", key, unread[0].getSystemId(),
                            unread[0].getLineNumber(), unread[0].getMessage());
                }
                return schema;
            } catch (SAXParseException e) {
                throw unread[0] == null ? e : new SAXParseException(unread[0].getMessage() + "; then: " + e.getMessage(),
                        unread[0].getPublicId(), unread[0].getSystemId(), unread[0].getLineNumber(),
                        unread[0].getColumnNumber());
            }
        } catch (SAXParseException e) {
            throw new ConfigException(key, key + ": schema " + e.getSystemId() + " line " + e.getLineNumber()
                    + ", column " + e.getColumnNumber() + ": " + e.getMessage());
        } catch (SAXException e) {
            throw new ConfigException(key, key + ": the schema does not compile: " + e.getMessage());
        }
    }

    /**
     * Refuses a schema that does not declare {@code element} as a global element: every record
     * would be rejected (cvc-elt.1.a), one dead letter at a time. A Schema does not list its
     * declarations, so an empty such element is validated: any complaint but that one means it is
     * declared (its content is of no interest here).
     */
    public static void requireDeclared(Schema schema, QName element) {
        String xml = "<r:" + element.getLocalPart() + " xmlns:r=\"" + escape(element.getNamespaceURI()) + "\"/>";
        if (element.getNamespaceURI().isEmpty()) {
            xml = "<" + element.getLocalPart() + "/>";
        }
        try {
            schema.newValidator().validate(new StreamSource(new StringReader(xml)));
        } catch (SAXException e) {
            if (String.valueOf(e.getMessage()).startsWith("cvc-elt.1")) {
                String key = IngestSettings.RECORD_SCHEMA.key();
                throw new ConfigException(key, key + " declares no global element " + element + ", the record element "
                        + "(" + IngestSettings.RECORD_ELEMENT.key() + "): every record would be rejected; name the schema "
                        + "that declares it, or check the element's namespace");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escape(String uri) {
        return uri.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }
}
