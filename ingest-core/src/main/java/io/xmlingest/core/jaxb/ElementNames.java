package io.xmlingest.core.jaxb;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementDecl;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlElementRefs;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlMixed;
import jakarta.xml.bind.annotation.XmlRegistry;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlSchema;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import org.w3c.dom.Element;

/**
 * Names the items of a property that holds elements of more than one name: a repeated
 * {@code xs:choice} (xjc's {@code @XmlElements} or {@code @XmlElementRefs}), mixed content
 * ({@code @XmlMixed}), wildcards ({@code xs:any}, {@code @XmlAnyElement}) and the head of a
 * substitution group (an {@code @XmlElementRef} that other elements may stand in for). The field alone
 * does not say which element an item was (two alternatives of one type bind to equal values), so
 * each item is written under its element's name.
 *
 * <p>Names the schema declares are local names, like every other property name. An element that
 * matched a wildcard is named as schema-less mode names elements, relative to the namespace of the
 * type that holds the wildcard: a local name in no namespace or in that one, {@code xml:name} in
 * the XML namespace, {@code {namespace-uri}name} in any other.
 */
public final class ElementNames {

    /** An {@code @XmlElements} alternative: the items of this type are elements of this name. */
    public record Alternative(String name, Class<?> type) {
    }

    /** A declared element an item may be, held as a {@code JAXBElement} or as a root element class. */
    public record Declared(QName name, Class<?> type) {
    }

    private final List<Alternative> alternatives;
    private final Map<QName, Declared> declared;
    private final boolean mixed;
    private final boolean wildcard;
    private final String namespace;

    private ElementNames(List<Alternative> alternatives, Map<QName, Declared> declared, boolean mixed,
                         boolean wildcard, String namespace) {
        this.alternatives = List.copyOf(alternatives);
        this.declared = Collections.unmodifiableMap(declared);
        this.mixed = mixed;
        this.wildcard = wildcard;
        this.namespace = namespace;
    }

    /** For a field that can hold elements of several names, how to name its items; null for any other field. */
    static ElementNames of(Field f, Class<?> owner) {
        XmlElements elements = f.getAnnotation(XmlElements.class);
        XmlElementRefs refs = f.getAnnotation(XmlElementRefs.class);
        XmlElementRef ref = f.getAnnotation(XmlElementRef.class);
        boolean mixed = f.isAnnotationPresent(XmlMixed.class);
        boolean wildcard = f.isAnnotationPresent(XmlAnyElement.class);
        String ownNamespace = namespaceOf(owner);
        Map<QName, Declared> substitutes = ref != null && ref.type() == JAXBElement.class
                ? substitutesOf(refName(ref, ownNamespace), owner) : Map.of();
        boolean choice = (elements != null && elements.value().length > 1) || refs != null || !substitutes.isEmpty();
        if (!choice && !mixed && !wildcard) {
            return null;
        }
        List<Alternative> alternatives = new ArrayList<>();
        if (elements != null) {
            for (XmlElement e : elements.value()) {
                alternatives.add(new Alternative("##default".equals(e.name()) ? f.getName() : e.name(), e.type()));
            }
        }
        Map<QName, Declared> declared = new LinkedHashMap<>();
        List<XmlElementRef> allRefs = new ArrayList<>();
        if (refs != null) {
            allRefs.addAll(List.of(refs.value()));
        }
        if (ref != null) {
            allRefs.add(ref);
        }
        for (XmlElementRef r : allRefs) {
            QName name = refName(r, ownNamespace);
            declared.put(name, new Declared(name, r.type()));
            declared.putAll(r == ref ? substitutes : substitutesOf(name, owner));
        }
        return new ElementNames(alternatives, declared, mixed, wildcard, ownNamespace);
    }

    public List<Alternative> alternatives() {
        return alternatives;
    }

    public List<Declared> declared() {
        return List.copyOf(declared.values());
    }

    /** Whether text may come between the elements (its pieces are strings among the items). */
    public boolean mixed() {
        return mixed;
    }

    /** Whether elements the schema does not name may be among the items. */
    public boolean wildcard() {
        return wildcard;
    }

    /** Whether this item is a piece of text rather than an element. */
    public boolean isText(Object item) {
        return mixed && item instanceof String;
    }

    /**
     * The name of the element this item was. Throws when the item is of no kind this property can
     * hold, rather than write it under a made-up name.
     */
    public String nameOf(Object item) {
        if (item instanceof JAXBElement<?> e) {
            return named(e.getName());
        }
        if (item instanceof Element dom) {
            return wildcardName(new QName(nullToEmpty(dom.getNamespaceURI()),
                    dom.getLocalName() == null ? dom.getTagName() : dom.getLocalName()));
        }
        for (Alternative a : alternatives) {
            if (a.type() == item.getClass()) {
                return a.name();
            }
        }
        for (Alternative a : alternatives) {
            if (a.type().isInstance(item)) {
                return a.name();
            }
        }
        QName root = rootElementOf(item.getClass());
        if (root != null) {
            return named(root);
        }
        throw new IllegalStateException("cannot tell which element a " + item.getClass().getName()
                + " in this property was");
    }

    private String named(QName name) {
        return !wildcard || declared.containsKey(name) ? name.getLocalPart() : wildcardName(name);
    }

    private String wildcardName(QName name) {
        return schemaLessName(name.getNamespaceURI(), name.getLocalPart(), namespace);
    }

    /**
     * How schema-less mode names an element or attribute in JSON: its local name in no namespace or
     * in {@code ownNamespace}, {@code xml:name} in the XML namespace, {@code {namespace-uri}name}
     * in any other, so names never depend on the prefixes a file uses.
     */
    public static String schemaLessName(String namespace, String localName, String ownNamespace) {
        String ns = nullToEmpty(namespace);
        if (ns.isEmpty() || ns.equals(ownNamespace)) {
            return localName;
        }
        if (XMLConstants.XML_NS_URI.equals(ns)) {
            return "xml:" + localName;
        }
        return "{" + ns + "}" + localName;
    }

    /**
     * The name of an attribute the schema does not declare ({@code xs:anyAttribute}): a local name in
     * no namespace, {@code xml:name} in the XML namespace, {@code {namespace-uri}name} in any other.
     * Declared attributes are in no namespace as a rule, so these cannot collide with them.
     */
    public static String attributeName(QName name) {
        return schemaLessName(name.getNamespaceURI(), name.getLocalPart(), "");
    }

    private static QName refName(XmlElementRef r, String ownNamespace) {
        if ("##default".equals(r.name())) {
            QName root = rootElementOf(r.type());
            if (root != null) {
                return root;
            }
        }
        return new QName("##default".equals(r.namespace()) ? ownNamespace : r.namespace(), r.name());
    }

    /**
     * The elements that may stand in for {@code head} (its substitution group, followed step by
     * step), as xjc declares them in the model's object factories: the owner's package's and any
     * the owner names in {@code @XmlSeeAlso}. A substitute declared only elsewhere is not found;
     * the encoder then refuses a record holding it rather than write it under the head's name.
     */
    private static Map<QName, Declared> substitutesOf(QName head, Class<?> owner) {
        List<Class<?>> registries = registriesOf(owner);
        Map<QName, Declared> found = new LinkedHashMap<>();
        List<QName> heads = new ArrayList<>(List.of(head));
        for (int i = 0; i < heads.size(); i++) {
            QName h = heads.get(i);
            for (Class<?> registry : registries) {
                for (Method m : registry.getDeclaredMethods()) {
                    XmlElementDecl d = m.getAnnotation(XmlElementDecl.class);
                    if (d == null || !h.getLocalPart().equals(d.substitutionHeadName())
                            || !h.getNamespaceURI().equals(declNamespace(d.substitutionHeadNamespace(), registry))) {
                        continue;
                    }
                    QName name = new QName(declNamespace(d.namespace(), registry), d.name());
                    if (!found.containsKey(name) && !name.equals(head)) {
                        found.put(name, new Declared(name, elementValueType(m)));
                        heads.add(name);
                    }
                }
            }
        }
        return found;
    }

    private static List<Class<?>> registriesOf(Class<?> owner) {
        List<Class<?>> registries = new ArrayList<>();
        try {
            Class<?> factory = Class.forName(owner.getPackageName() + ".ObjectFactory", false, owner.getClassLoader());
            if (factory.isAnnotationPresent(XmlRegistry.class)) {
                registries.add(factory);
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // no object factory beside the class: nothing declared there
        }
        XmlSeeAlso seeAlso = owner.getAnnotation(XmlSeeAlso.class);
        if (seeAlso != null) {
            for (Class<?> c : seeAlso.value()) {
                if (c.isAnnotationPresent(XmlRegistry.class) && !registries.contains(c)) {
                    registries.add(c);
                }
            }
        }
        return registries;
    }

    private static String declNamespace(String declared, Class<?> registry) {
        return "##default".equals(declared) ? schemaNamespaceOf(registry) : declared;
    }

    /** X of a factory method returning {@code JAXBElement<X>}; Object when it cannot be told. */
    private static Class<?> elementValueType(Method m) {
        if (m.getGenericReturnType() instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] instanceof Class<?> c) {
            return c;
        }
        return Object.class;
    }

    /** The element a class is bound to with {@code @XmlRootElement}, with JAXB's defaults; null if none. */
    static QName rootElementOf(Class<?> type) {
        XmlRootElement root = type.getAnnotation(XmlRootElement.class);
        if (root == null) {
            return null;
        }
        String name = "##default".equals(root.name()) ? decapitalized(type.getSimpleName()) : root.name();
        String ns = "##default".equals(root.namespace()) ? schemaNamespaceOf(type) : root.namespace();
        return new QName(ns, name);
    }

    /** The target namespace of a class's XML type, as JAXB works it out. */
    static String namespaceOf(Class<?> type) {
        XmlType t = type.getAnnotation(XmlType.class);
        if (t != null && !"##default".equals(t.namespace())) {
            return t.namespace();
        }
        return schemaNamespaceOf(type);
    }

    private static String schemaNamespaceOf(Class<?> type) {
        Package p = type.getPackage();
        XmlSchema schema = p == null ? null : p.getAnnotation(XmlSchema.class);
        return schema == null ? "" : schema.namespace();
    }

    private static String decapitalized(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
