package io.xmlingest.core.jaxb;

import jakarta.xml.bind.annotation.XmlAnyAttribute;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlTransient;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.xml.namespace.QName;

/**
 * The XML-visible properties of JAXB classes that use field access (as xjc generates them),
 * read once per class from the annotations. Attributes come first, then the attributes the
 * schema leaves open ({@code xs:anyAttribute}), then elements in declaration order (xjc declares
 * them in schema order), then text content.
 */
public final class JaxbProperties {
    private JaxbProperties() {
    }

    private static final ClassValue<List<JaxbProperty>> CACHE = new ClassValue<>() {
        @Override
        protected List<JaxbProperty> computeValue(Class<?> type) {
            return introspect(type);
        }
    };

    public static List<JaxbProperty> of(Class<?> type) {
        return CACHE.get(type);
    }

    // Asked for every value of every record: an annotation lookup each time was a tenth of serializing.
    private static final ClassValue<Boolean> BOUND = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return (type.isAnnotationPresent(XmlType.class) || type.isAnnotationPresent(XmlRootElement.class))
                    && !type.isEnum();
        }
    };

    /** True for classes JAXB binds as structures (not simple values such as strings or numbers). */
    /**
     * Whether the field holds an xs:list, whose value is its items, so that an empty one is there and
     * holds none: marked {@code @XmlList}, or a collection bound to an attribute, which xjc leaves
     * unmarked (an attribute can only hold several values as a list).
     */
    public static boolean isXsList(Field f) {
        return f.isAnnotationPresent(jakarta.xml.bind.annotation.XmlList.class)
                || (java.util.Collection.class.isAssignableFrom(f.getType()) && f.isAnnotationPresent(XmlAttribute.class));
    }

    public static boolean isBound(Class<?> type) {
        return BOUND.get(type);
    }

    private static List<JaxbProperty> introspect(Class<?> type) {
        List<JaxbProperty> attributes = new ArrayList<>();
        List<JaxbProperty> otherAttributes = new ArrayList<>();
        List<JaxbProperty> elements = new ArrayList<>();
        List<JaxbProperty> text = new ArrayList<>();
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.add(0, c);
        }
        for (Class<?> c : hierarchy) {
            for (Field f : c.getDeclaredFields()) {
                int mod = f.getModifiers();
                if (Modifier.isStatic(mod) || Modifier.isTransient(mod) || f.isSynthetic()
                        || f.isAnnotationPresent(XmlTransient.class)) {
                    continue;
                }
                f.setAccessible(true);
                XmlAttribute attribute = f.getAnnotation(XmlAttribute.class);
                XmlElement element = f.getAnnotation(XmlElement.class);
                ElementNames names = ElementNames.of(f, c);
                if (attribute != null) {
                    attributes.add(new JaxbProperty(name(attribute.name(), f), JaxbProperty.Kind.ATTRIBUTE,
                            attribute.required(), f, AttributeDefaults.of(type, f))
                            .inNamespace(ElementNames.attributeNamespace(f, c)));
                } else if (f.isAnnotationPresent(XmlAnyAttribute.class)) {
                    otherAttributes.add(new JaxbProperty(f.getName(), JaxbProperty.Kind.OTHER_ATTRIBUTES, false, f));
                } else if (f.isAnnotationPresent(XmlValue.class)) {
                    text.add(new JaxbProperty("value", JaxbProperty.Kind.TEXT, false, f));
                } else if (names != null) {
                    // Checked before a lone @XmlElementRef: mixed content names its elements with one.
                    elements.add(new JaxbProperty(names.property(), JaxbProperty.Kind.CHOICE, false, f, null, names));
                } else if (element != null) {
                    // A nil required element binds as null, like a missing one; without a schema the two look
                    // alike, and refusing a record the schema accepts would be worse than letting a gap through.
                    elements.add(new JaxbProperty(name(element.name(), f), JaxbProperty.Kind.ELEMENT,
                            element.required() && !element.nillable(), f).inNamespace(ElementNames.elementNamespace(f, c)));
                } else if (f.isAnnotationPresent(XmlElementRef.class)) {
                    // xjc keeps optional nillable elements as JAXBElement under the element's XML name, which
                    // is not always the field's (unit-price becomes unitPrice).
                    XmlElementRef ref = f.getAnnotation(XmlElementRef.class);
                    String name = name(ref.name(), f);
                    QName refName = ElementNames.refName(ref, c);
                    elements.add(new JaxbProperty(name, JaxbProperty.Kind.ELEMENT, false, f, null, null, refName, name,
                            refName.getNamespaceURI()));
                } else if (f.isAnnotationPresent(XmlElements.class)
                        || Modifier.isProtected(mod) || Modifier.isPublic(mod)) {
                    // xjc leaves optional elements unannotated; field access binds them by field name.
                    elements.add(new JaxbProperty(f.getName(), JaxbProperty.Kind.ELEMENT, false, f)
                            .inNamespace(ElementNames.elementNamespace(f, c)));
                }
            }
        }
        List<JaxbProperty> all = new ArrayList<>();
        all.addAll(attributes);
        all.addAll(otherAttributes);
        all.addAll(elements);
        all.addAll(text);
        return Collections.unmodifiableList(apart(all, ElementNames.namespaceOf(type)));
    }

    /**
     * The properties, each under a JSON name no other one has: two members of one name in one JSON
     * object are two values of which most readers keep only the last, without a word. First an
     * attribute (or the {@code xs:anyAttribute} map) whose name an element or the text's
     * {@code value} has too is {@code @name}, as schema-less mode marks attributes; then, of
     * properties that still share a name (an element and a reference to another namespace's element
     * of the same local name, say), each in another namespace than the class's is
     * {@code {uri}name}, as schema-less mode writes a foreign name, and past that, if any still
     * share one, each in a namespace at all.
     */
    private static List<JaxbProperty> apart(List<JaxbProperty> properties, String ownNamespace) {
        List<JaxbProperty> out = new ArrayList<>(properties);
        for (int i = 0; i < out.size(); i++) {
            JaxbProperty p = out.get(i);
            boolean attribute = p.kind() == JaxbProperty.Kind.ATTRIBUTE || p.kind() == JaxbProperty.Kind.OTHER_ATTRIBUTES;
            if (attribute && out.stream().anyMatch(o -> o != p && o.kind() != JaxbProperty.Kind.ATTRIBUTE
                    && o.kind() != JaxbProperty.Kind.OTHER_ATTRIBUTES && o.json().equals(p.json()))) {
                out.set(i, p.writtenAs("@" + p.json()));
            }
        }
        qualifyShared(out, ns -> !ns.isEmpty() && !ns.equals(ownNamespace));
        qualifyShared(out, ns -> !ns.isEmpty());
        return out;
    }

    private static void qualifyShared(List<JaxbProperty> out, java.util.function.Predicate<String> qualify) {
        java.util.Map<String, Long> uses = out.stream()
                .collect(java.util.stream.Collectors.groupingBy(JaxbProperty::json, java.util.stream.Collectors.counting()));
        for (int i = 0; i < out.size(); i++) {
            JaxbProperty p = out.get(i);
            String ns = p.namespace();
            if (uses.get(p.json()) > 1 && ns != null && qualify.test(ns)) {
                String json = p.json();
                String marked = json.startsWith("@") ? "@" : "";
                out.set(i, p.writtenAs(marked + "{" + ns + "}" + json.substring(marked.length())));
            }
        }
    }

    private static String name(String annotated, Field f) {
        return "##default".equals(annotated) ? f.getName() : annotated;
    }
}
