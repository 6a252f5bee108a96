package io.xmlingest.core.bind;

import io.xmlingest.core.jaxb.XmlValues;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import java.util.HashMap;
import java.util.Map;

/**
 * Binds an enumeration strictly. JAXB's own enum parsing looks the text up in a map and returns
 * what it finds, null for an unknown value, and reports nothing: "green" for a colour left the
 * property empty, an optional one went missing in silence, and a list of colours got a null.
 * Through this adapter an unknown value throws, which JAXB reports as an error for the record.
 *
 * <p>Models that {@code model compile} makes carry a subclass of this on every enum class; the
 * sample model calls {@link #unmarshal} from its bindings.
 */
public class StrictEnumAdapter<E extends Enum<E>> extends XmlAdapter<String, E> {

    /** The whiteSpace facet of the enumeration's base type, applied before the text is looked up. */
    public enum Whitespace {
        /** xs:string: the text must match exactly. */
        PRESERVE,
        /** xs:normalizedString: tabs and line breaks read as spaces. */
        REPLACE,
        /** xs:token and the types derived from it: ends trimmed, inner runs of whitespace one space. */
        COLLAPSE
    }

    private static final int MAX_LISTED = 10;

    private final Map<String, E> byValue = new HashMap<>();
    private final Whitespace whitespace;
    private final String description;

    public StrictEnumAdapter(Class<E> type, Whitespace whitespace) {
        this.whitespace = whitespace;
        StringBuilder values = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            String value = XmlValues.enumValue(constant);
            byValue.put(value, constant);
            if (constant.ordinal() < MAX_LISTED) {
                values.append(constant.ordinal() == 0 ? "" : ", ").append(value);
            }
        }
        if (byValue.size() > MAX_LISTED) {
            values.append(", ... (").append(byValue.size()).append(" values)");
        }
        XmlType xmlType = type.getAnnotation(XmlType.class);
        String name = xmlType == null || xmlType.name().isEmpty() || xmlType.name().startsWith("##")
                ? type.getSimpleName() : xmlType.name();
        this.description = "enumeration " + name + ": " + values;
    }

    @Override
    public E unmarshal(String text) {
        if (text == null) {
            return null;
        }
        String value = switch (whitespace) {
            case PRESERVE -> text;
            case REPLACE -> XsdText.replace(text);
            case COLLAPSE -> XsdText.collapse(text);
        };
        E constant = byValue.get(value);
        if (constant == null) {
            throw new IllegalArgumentException(XsdText.quote(text) + " is not a value of the " + description);
        }
        return constant;
    }

    @Override
    public String marshal(E value) {
        return value == null ? null : XmlValues.enumValue(value);
    }
}
