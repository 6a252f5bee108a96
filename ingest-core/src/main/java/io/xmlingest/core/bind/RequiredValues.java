package io.xmlingest.core.bind;

import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import java.util.Collection;

/**
 * Finds required values a bound record lacks. JAXB does not check required elements or
 * attributes without a schema, and binds them as null; this check, cheap and schema-free,
 * makes such a record an error instead of a message with a hole in it.
 */
final class RequiredValues {
    private RequiredValues() {
    }

    /** The path of the first missing required value (such as {@code address/city}), or null. */
    static String firstMissing(Object bean) {
        // Runs on every record, so a path is only built for a value that is missing.
        for (JaxbProperty p : JaxbProperties.of(bean.getClass())) {
            Object value = p.get(bean);
            if (value == null || (value instanceof Collection<?> c && c.isEmpty())) {
                if (p.required()) {
                    return path(p);
                }
                continue;
            }
            if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    String missing = item != null && JaxbProperties.isBound(item.getClass())
                            ? firstMissing(item) : null;
                    if (missing != null) {
                        return path(p) + "/" + missing;
                    }
                }
            } else if (JaxbProperties.isBound(value.getClass())) {
                String missing = firstMissing(value);
                if (missing != null) {
                    return path(p) + "/" + missing;
                }
            }
        }
        return null;
    }

    private static String path(JaxbProperty p) {
        return (p.kind() == JaxbProperty.Kind.ATTRIBUTE ? "@" : "") + p.name();
    }
}
