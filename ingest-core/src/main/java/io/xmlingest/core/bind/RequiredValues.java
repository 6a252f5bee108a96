package io.xmlingest.core.bind;

import io.xmlingest.core.jaxb.JaxbProperties;
import io.xmlingest.core.jaxb.JaxbProperty;
import io.xmlingest.core.jaxb.References;
import jakarta.xml.bind.JAXBElement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds required values a bound record lacks. JAXB does not check required elements or
 * attributes without a schema, and binds them as null; this check, cheap and schema-free,
 * makes such a record an error instead of a message with a hole in it.
 */
final class RequiredValues {
    private RequiredValues() {
    }

    /**
     * What to look at in a class, worked out once: its required properties, and the properties
     * that may hold structures with required properties of their own. It runs on every record,
     * and reading every property of every record by reflection was a tenth of a binder's time.
     * A reference (xs:IDREF) is only looked for: what it points to is checked where it stands, and
     * following it could go round a loop.
     */
    private record Plan(List<JaxbProperty> check, List<JaxbProperty> present, Set<JaxbProperty> lists) {
    }

    private static final ClassValue<Plan> PLANS = new ClassValue<>() {
        @Override
        protected Plan computeValue(Class<?> type) {
            List<JaxbProperty> check = new ArrayList<>();
            List<JaxbProperty> present = new ArrayList<>();
            Set<JaxbProperty> lists = new HashSet<>();
            for (JaxbProperty p : JaxbProperties.of(type)) {
                Class<?> t = p.field().getType();
                if (JaxbProperties.isXsList(p.field())) {
                    lists.add(p);
                }
                if (References.isReference(p)) {
                    if (p.required()) {
                        present.add(p);
                    }
                } else if (p.required() || Collection.class.isAssignableFrom(t) || t == Object.class
                        || t == JAXBElement.class || JaxbProperties.isBound(t)) {
                    check.add(p);
                }
            }
            return new Plan(List.copyOf(check), List.copyOf(present), Set.copyOf(lists));
        }
    };

    /** The path of the first missing required value (such as {@code address/city}), or null. */
    static String firstMissing(Object bean) {
        return firstMissing(bean, false);
    }

    /**
     * @param nil whether {@code bean} is a nil element's: it has no content, so only its attributes can be
     *            missing (a valid nil element with a required child element was rejected for lacking it)
     */
    private static String firstMissing(Object bean, boolean nil) {
        Plan plan = PLANS.get(bean.getClass());
        for (JaxbProperty p : plan.present()) {
            if (nil && p.kind() != JaxbProperty.Kind.ATTRIBUTE) {
                continue;
            }
            Object value = p.get(bean);
            if (value == null || (value instanceof Collection<?> c && c.isEmpty())) {
                return path(p);
            }
        }
        for (JaxbProperty p : plan.check()) {
            if (nil && p.kind() != JaxbProperty.Kind.ATTRIBUTE) {
                continue;
            }
            Object raw = p.get(bean);
            if (isReference(p, raw)) {
                continue;
            }
            // An optional nillable structure arrives wrapped; what it holds has required values of its own.
            Object value = unwrapped(raw);
            // An xs:list's value is its items: <lst/> is present, and holds none. JAXB sets the list it read, empty
            // too, and leaves the field null when the element or attribute is absent.
            if (value == null || (value instanceof Collection<?> c && c.isEmpty() && !plan.lists().contains(p))) {
                if (p.required()) {
                    return path(p);
                }
                continue;
            }
            if (value instanceof Collection<?> items) {
                for (Object element : items) {
                    if (isReference(p, element)) {
                        continue;
                    }
                    Object item = unwrapped(element);
                    String missing = item != null && JaxbProperties.isBound(item.getClass())
                            ? firstMissing(item, isNil(element)) : null;
                    if (missing != null) {
                        return path(p) + "/" + missing;
                    }
                }
            } else if (JaxbProperties.isBound(value.getClass())) {
                String missing = firstMissing(value, isNil(raw));
                if (missing != null) {
                    return path(p) + "/" + missing;
                }
            }
        }
        return null;
    }

    /** An IDREF alternative of a choice: the object it points to is checked where it stands (the Plan's). */
    private static boolean isReference(JaxbProperty p, Object item) {
        return p.names() != null && p.names().isReference(item);
    }

    private static boolean isNil(Object value) {
        return value instanceof JAXBElement<?> element && element.isNil();
    }

    private static Object unwrapped(Object value) {
        return value instanceof JAXBElement<?> element ? element.getValue() : value;
    }

    private static String path(JaxbProperty p) {
        return (p.kind() == JaxbProperty.Kind.ATTRIBUTE ? "@" : "") + p.name();
    }
}
