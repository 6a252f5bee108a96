package io.xmlingest.core.error;

import io.xmlingest.core.config.IngestSettings;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;

/**
 * Turns a parser's complaint into a {@link FileFailedException} that says where, and, for a
 * processing limit, which setting controls it. Shared by every stage that reads XML, so a limit
 * met while splitting and one met while binding read the same.
 */
public final class XmlFaults {
    private XmlFaults() {
    }

    public static FileFailedException notReadable(XMLStreamException e, ErrorLocation where) {
        return notReadable(e, where, e.getLocation());
    }

    private static final Pattern PARSE_ERROR_AT = Pattern.compile("^ParseError at \\[row,col\\]:\\[-?\\d+,-?\\d+\\]\\R+Message: ");

    private static final Pattern EXTERNAL_ENTITY =
            Pattern.compile("reference to external entity \"([^\"]*)\", but stream reader has feature");

    /** As above, with the position taken from {@code loc} rather than from the exception. */
    public static FileFailedException notReadable(XMLStreamException e, ErrorLocation where, Location loc) {
        String reason = String.valueOf(e.getMessage());
        int at = reason.indexOf("\n at [");
        if (at >= 0) {
            reason = reason.substring(0, at);
        }
        // XMLStreamException(message, location), as our own checks make them, puts the position before the message.
        reason = PARSE_ERROR_AT.matcher(reason).replaceFirst("").strip();
        Location used = whereUsed(loc);
        if (used != loc && loc.getLineNumber() > 0) {
            reason = reason + " (in the text of an entity used here, which the DOCTYPE declares at line "
                    + loc.getLineNumber() + ", column " + loc.getColumnNumber() + ")";
            loc = used;
        }
        ErrorLocation located = loc == null || loc.getLineNumber() <= 0
                ? where : where.withPosition(loc.getLineNumber(), loc.getColumnNumber(), -1);
        Matcher external = EXTERNAL_ENTITY.matcher(reason);
        if (external.find()) {
            // Woodstox names its own switch; what the sender can act on is that such entities are never read.
            return new FileFailedException("XML is not readable: a reference to the external entity '" + external.group(1)
                    + "' (a SYSTEM or PUBLIC entity of the DOCTYPE), and external entities are never read: "
                    + "xml.doctype=internal expands only entities whose text the DOCTYPE holds", located,
                    IngestSettings.XML_DOCTYPE.key(), e);
        }
        String setting = limitSetting(reason);
        if (IngestSettings.XML_MAX_ENTITY_EXPANSIONS.key().equals(setting)) {
            // Woodstox counts the whole document: a large export using entities as meant meets it with no record at fault.
            reason = reason + ": " + setting + " counts every expansion of the file from where this run began "
                    + "reading it, not of one record; raise it for a file that uses entities in many records";
        }
        return new FileFailedException("XML is not readable: " + reason, located, setting, e);
    }

    /**
     * Where in the file a position inside an entity's text is: the parser gives the position in the entity's
     * declaration, in the DOCTYPE, and keeps where the entity was referenced as its context (nested for an entity
     * used in another's text). A record's fault there was put at line 2 of a file whose record was at line 6.
     */
    private static Location whereUsed(Location loc) {
        Location at = loc;
        while (at instanceof org.codehaus.stax2.XMLStreamLocation2 nested && nested.getContext() != null) {
            at = nested.getContext();
        }
        return at;
    }

    /**
     * The setting behind a Woodstox limit message, or behind an entity refused because the DOCTYPE
     * policy does not process DTDs; null otherwise.
     */
    static String limitSetting(String message) {
        String m = message.toLowerCase(Locale.ROOT);
        if (m.contains("dtds are not processed")) {
            return IngestSettings.XML_DOCTYPE.key();
        }
        if (!m.contains("limit") && !m.contains("exceed")) {
            return null;
        }
        if (m.contains("entit")) {
            return m.contains("depth") ? IngestSettings.XML_MAX_ENTITY_DEPTH.key() : IngestSettings.XML_MAX_ENTITY_EXPANSIONS.key();
        }
        if (m.contains("depth")) {
            return IngestSettings.XML_MAX_DEPTH.key();
        }
        if (m.contains("attribute")) {
            // Woodstox: "Maximum attribute size limit (N) exceeded" vs "Attribute limit (N) exceeded" (the count).
            return m.contains("size") || m.contains("length") || m.contains("value")
                    ? IngestSettings.XML_MAX_ATTRIBUTE_SIZE.key() : IngestSettings.XML_MAX_ATTRIBUTES.key();
        }
        if (m.contains("text")) {
            return IngestSettings.XML_MAX_TEXT_SIZE.key();
        }
        return null;
    }
}
