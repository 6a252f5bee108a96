package io.xmlingest.core.bind;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Compiles the XML Schema files named by {@code record.schema} into one {@link Schema}, once at
 * start-up: a schema that does not compile stops the command before any file is read. A schema
 * may include or import other local files, but nothing it names over the network is fetched.
 */
public final class RecordSchemas {
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
            return factory.newSchema(sources);
        } catch (SAXParseException e) {
            throw new ConfigException(key, key + ": schema " + e.getSystemId() + " line " + e.getLineNumber()
                    + ", column " + e.getColumnNumber() + ": " + e.getMessage());
        } catch (SAXException e) {
            throw new ConfigException(key, key + ": the schema does not compile: " + e.getMessage());
        }
    }
}
