package io.xmlingest.core.bind;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.Causes;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.error.OversizedRecordException;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.error.XmlFaults;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Unmarshaller;
import jakarta.xml.bind.ValidationEvent;
import jakarta.xml.bind.ValidationEventLocator;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.validation.Schema;
import org.glassfish.jaxb.runtime.IDResolver;
import org.xml.sax.SAXParseException;

/**
 * Binds records with JAXB, strictly. JAXB's default event handler ignores values that do not
 * convert and elements it does not know, leaving a silent null or zero behind; here the first
 * such event rejects the record, and so does a required value that is missing.
 *
 * <p>One instance per thread: the {@link JAXBContext} is shared and thread-safe, the
 * {@link Unmarshaller} is not and is reused for every record of this binder.
 */
public final class JaxbRecordBinder<T> implements RecordBinder<T> {

    private final Class<T> type;
    private final JAXBContext context;
    private final Schema schema;
    private final UnmappedContent unmapped;
    private Unmarshaller unmarshaller;
    private ValidationEvent firstEvent;
    private String firstEventElement;
    private String firstEventAttribute;
    private XMLStreamReader current;
    private Thread anchored;

    public JaxbRecordBinder(JAXBContext context, Class<T> type) {
        this(context, type, null);
    }

    /** @param schema validates every record as it is bound (JAXB runs the validator over the same events), or null */
    public JaxbRecordBinder(JAXBContext context, Class<T> type, Schema schema) {
        this(context, type, schema, false);
    }

    /**
     * @param dropUnmapped leave out content the model has no place for, as JAXB does, instead of
     *                     rejecting the record (see {@link UnmappedContent})
     */
    public JaxbRecordBinder(JAXBContext context, Class<T> type, Schema schema, boolean dropUnmapped) {
        this.type = type;
        this.context = context;
        this.schema = schema;
        this.unmapped = dropUnmapped ? null : new UnmappedContent(type);
        this.unmarshaller = newUnmarshaller();
    }

    /**
     * JAXB's runtime counts the errors an unmarshaller reports and, past ten, stops reporting them:
     * an unknown element is then dropped in silence. So an unmarshaller that has reported anything
     * is replaced before the next record (see {@link #bind}).
     */
    private Unmarshaller newUnmarshaller() {
        try {
            Unmarshaller u = context.createUnmarshaller();
            u.setSchema(schema);
            u.setListener(unmapped);
            u.setProperty(IDResolver.class.getName(), new RecordIdResolver());
            u.setEventHandler(event -> {
                if (String.valueOf(event.getMessage()).startsWith("cvc-id.1:")) {
                    return true; // an xs:IDREF naming an ID in another record, which a record validated alone lacks
                }
                if (unmapped != null && unmapped.atNilEnd() && isValueRefusal(event.getLinkedException())) {
                    return true; // the value of an element marked nil: null, not "" that failed to parse (see atNilEnd)
                }
                if (firstEvent == null) {
                    firstEvent = event;
                    firstEventElement = elementAt(current);
                    firstEventAttribute = attributeQuoted(current, event);
                }
                return false;
            });
            return u;
        } catch (JAXBException e) {
            throw new IllegalStateException("cannot create an unmarshaller for " + type.getName(), e);
        }
    }

    @Override
    public T bind(XMLStreamReader record, ErrorLocation where) {
        Thread thread = Thread.currentThread();
        if (thread != anchored) {
            CoordinatorAnchor.anchorCurrentThread();
            anchored = thread;
        }
        if (firstEvent != null || unmarshaller == null) {
            unmarshaller = newUnmarshaller();
        }
        firstEvent = null;
        firstEventElement = null;
        firstEventAttribute = null;
        current = record;
        T value;
        try {
            XMLStreamReader read = schema == null ? record : InheritedNamespaces.of(record);
            value = unmarshaller.unmarshal(unmapped == null ? read : unmapped.reset(read), type).getValue();
        } catch (Error e) {
            // A stack overflow on a deep record left the unmarshaller part-way through it: the next record gets another.
            unmarshaller = null;
            throw e;
        } catch (JAXBException | RuntimeException e) {
            XMLStreamException broken = streamFault(e);
            if (broken instanceof OversizedRecordException big) {
                throw big.rejection(where);
            }
            if (broken != null) {
                // The record's reader gives the file's own line after a resume; the exception's own location may not.
                throw XmlFaults.notReadable(broken, where, record.getLocation());
            }
            if (unmappedFirst()) {
                // Found before JAXB gave up, and in the data's terms: an xsi:type JAXB then could not store, say.
                throw unmappedContent(where, e);
            }
            throw rejected(e, where);
        }
        if (unmappedFirst()) {
            throw unmappedContent(where, null);
        }
        if (firstEvent != null) {
            // JAXB recovered from an event it was told not to recover from: still a rejection.
            throw rejected(null, where);
        }
        String missing = RequiredValues.firstMissing(value);
        if (missing != null) {
            throw new RecordRejectedException("record does not bind: required value " + missing + " is missing",
                    where, null);
        }
        return value;
    }

    /**
     * Whether what JAXB would drop is what to report: found, and no later in the record than JAXB's
     * own first complaint, which it often causes (an element marked nil that may not be is bound from
     * "", which a strict parser then refuses, and the message would name a value the file never had).
     */
    private boolean unmappedFirst() {
        if (unmapped == null || unmapped.problem() == null) {
            return false;
        }
        ValidationEventLocator loc = firstEvent == null ? null : firstEvent.getLocator();
        if (loc == null || loc.getLineNumber() <= 0) {
            return true;
        }
        return unmapped.line() < loc.getLineNumber()
                || (unmapped.line() == loc.getLineNumber() && unmapped.column() <= loc.getColumnNumber());
    }

    private RecordRejectedException unmappedContent(ErrorLocation where, Exception cause) {
        return new RecordRejectedException("record does not bind: " + unmapped.problem(),
                at(where, unmapped.line(), unmapped.column()), cause, IngestSettings.RECORD_UNMAPPED_CONTENT.key());
    }

    private RecordRejectedException rejected(Exception e, ErrorLocation where) {
        if (firstEvent != null) {
            ValidationEventLocator loc = firstEvent.getLocator();
            int line = loc == null ? -1 : loc.getLineNumber();
            int column = loc == null ? -1 : loc.getColumnNumber();
            String detail = firstEvent.getMessage();
            Throwable linked = firstEvent.getLinkedException();
            if ((detail == null || detail.isBlank()) && linked != null) {
                detail = linked.toString();
            }
            String quoted = detail;
            Throwable refusal = Causes.find(linked, t -> t instanceof IllegalArgumentException
                    && quoted.startsWith(t.getClass().getName() + ": "));
            if (refusal != null) {
                // JAXB quotes a value parser's refusal with its class name; the reason is the message itself.
                detail = detail.substring(refusal.getClass().getName().length() + 2);
            }
            // JAXB names mixed content's text among the expected elements as <{NUL}text>; a NUL in a log or dead letter
            // makes grep call the file binary.
            detail = detail.replace("<{\u0000}text>", "text");
            if (Causes.find(linked, InstantiationException.class::isInstance) != null) {
                detail += ": its type is abstract, so the element needs an xsi:type naming a type derived from it";
            }
            String element = firstEventElement == null ? ""
                    : firstEventAttribute != null ? " (in attribute " + firstEventAttribute + " of <" + firstEventElement + ">)"
                    : " (in element <" + firstEventElement + ">)";
            if (schema != null && firstEvent.getLinkedException() instanceof SAXParseException) {
                // The validator, not JAXB, refused it: say so, since the fix is in the data or the schema, not the model.
                return new RecordRejectedException("record is not valid against the schema: " + firstLine(detail)
                        + element, at(where, line, column), e, IngestSettings.RECORD_SCHEMA.key());
            }
            return new RecordRejectedException("record does not bind: " + firstLine(detail) + element,
                    at(where, line, column), e);
        }
        return new RecordRejectedException("record does not bind: " + firstLine(String.valueOf(e)), where, e);
    }

    private static boolean isValueRefusal(Throwable linked) {
        return Causes.find(linked, IllegalArgumentException.class::isInstance) != null;
    }

    /** The element JAXB was reading when it complained: it reports conversion errors at the element's tags. */
    private static String elementAt(XMLStreamReader reader) {
        if (reader == null) {
            return null;
        }
        int event = reader.getEventType();
        return event == javax.xml.stream.XMLStreamConstants.START_ELEMENT
                || event == javax.xml.stream.XMLStreamConstants.END_ELEMENT ? reader.getLocalName() : null;
    }

    /**
     * The attribute whose value a refusal quotes, when JAXB or the validator refused it at a start tag: JAXB converts
     * attributes there, element text at the end tag, and its message named the element alone ("'fax' is not a value of
     * the enumeration PhoneType (in element <phone>)", of {@code type="fax"}). Null when no attribute, or more than one
     * name, has it.
     */
    private static String attributeQuoted(XMLStreamReader reader, ValidationEvent event) {
        // The validator's refusal of an attribute's value comes at the start tag too, worded alike ("cvc-datatype-valid
        // .1.2.1: 'yes' is not a valid value for 'boolean'."), before JAXB converts it.
        String message = String.valueOf(event.getMessage());
        boolean validatorOnValue = event.getLinkedException() instanceof SAXParseException
                && (message.contains("is not a valid value") || message.contains("is not facet-valid"));
        if (reader == null || reader.getEventType() != javax.xml.stream.XMLStreamConstants.START_ELEMENT
                || !(isValueRefusal(event.getLinkedException()) || validatorOnValue)) {
            return null;
        }
        int open = message.indexOf('\'');
        int close = message.indexOf("' is not", open + 1);
        if (open < 0 || close < 0) {
            return null;
        }
        String quoted = message.substring(open + 1, close);
        String found = null;
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String value = reader.getAttributeValue(i);
            if (value.equals(quoted) || value.strip().equals(quoted.strip())) {
                String name = reader.getAttributeLocalName(i);
                if (found != null && !found.equals(name)) {
                    return null;
                }
                found = name;
            }
        }
        return found;
    }

    private static ErrorLocation at(ErrorLocation where, int line, int column) {
        return line > 0 ? where.withPosition(line, column, -1) : where;
    }

    private static XMLStreamException streamFault(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof XMLStreamException x) {
                return x;
            }
            if (t instanceof JAXBException j && j.getLinkedException() instanceof XMLStreamException x) {
                return x;
            }
        }
        return null;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "unknown error";
        }
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).strip();
    }
}
