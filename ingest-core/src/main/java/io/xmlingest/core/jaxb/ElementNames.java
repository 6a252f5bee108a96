package io.xmlingest.core.jaxb;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlElementRefs;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlMixed;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /**
     * An {@code @XmlElements} alternative: the items of this type are elements of this name. A nil
     * one binds to null, and JAXB keeps no name for it.
     */
    public record Alternative(String namespace, String name, Class<?> type, boolean nillable) {
    }

    /**
     * A declared element an item may be: held in a {@code JAXBElement} ({@code wrapped}; then
     * {@code type} is what it holds, or JAXBElement itself when only the field can tell) or as an
     * instance of a root element class ({@code type}). A {@code reference} is an xs:IDREF, which
     * JAXB binds to the object it names: its object factory's declaration says so, not the field;
     * {@code referencesList}, an xs:IDREFS, held as a list of such objects.
     */
    public record Declared(QName name, Class<?> type, boolean wrapped, boolean reference, boolean referencesList) {
    }

    private final String property;
    private final List<Alternative> alternatives;
    private final Map<QName, Declared> declared;
    private final boolean mixed;
    private final boolean wildcard;
    private final String namespace;
    private final Map<QName, String> jsonNames;
    private final boolean references;

    private ElementNames(String property, List<Alternative> alternatives, Map<QName, Declared> declared, boolean mixed,
                         boolean wildcard, String namespace) {
        this.property = property;
        this.alternatives = List.copyOf(alternatives);
        this.declared = Collections.unmodifiableMap(declared);
        this.mixed = mixed;
        this.wildcard = wildcard;
        this.namespace = namespace;
        this.jsonNames = jsonNames(declared.keySet(), namespace);
        this.references = declared.values().stream().anyMatch(Declared::reference);
    }

    /**
     * Local names, except where two declared elements share one (a substitute in another namespace
     * named as its head, {@code b:channel} for {@code a:channel}): then each not in the owner's
     * namespace is named {@code {urn:b}channel} ({@code {}channel} in no namespace), so neither is
     * written as the other.
     */
    private static Map<QName, String> jsonNames(Collection<QName> names, String ownNamespace) {
        Map<QName, String> json = new LinkedHashMap<>();
        for (QName n : names) {
            boolean shared = names.stream().anyMatch(o -> !o.equals(n) && o.getLocalPart().equals(n.getLocalPart()));
            // {}name for no namespace: schema-less mode's bare local name would be the other element's.
            json.put(n, shared && !n.getNamespaceURI().equals(ownNamespace) ? qualified(n) : n.getLocalPart());
        }
        return json;
    }

    private static String qualified(QName name) {
        return "{" + name.getNamespaceURI() + "}" + name.getLocalPart();
    }

    /** The name a declared element's items are written under. */
    public String jsonName(QName declaredElement) {
        String name = jsonNames.get(declaredElement);
        return name != null ? name : declaredElement.getLocalPart();
    }

    /** For a field that can hold elements of several names, how to name its items; null for any other field. */
    static ElementNames of(Field f, Class<?> owner) {
        XmlElements elements = f.getAnnotation(XmlElements.class);
        XmlElementRefs refs = f.getAnnotation(XmlElementRefs.class);
        XmlElementRef ref = f.getAnnotation(XmlElementRef.class);
        boolean mixed = f.isAnnotationPresent(XmlMixed.class);
        boolean wildcard = f.isAnnotationPresent(XmlAnyElement.class);
        String ownNamespace = namespaceOf(owner);
        List<XmlElementRef> allRefs = refsOf(f);
        // Read once for all the field's references: each asks the same factories.
        List<Class<?>> registries = allRefs.isEmpty() ? List.of() : ObjectFactories.registriesOf(owner);
        Map<QName, Declared> substitutes = ref != null && ref.type() == JAXBElement.class
                ? ObjectFactories.substitutesOf(refName(ref, ownNamespace), registries) : Map.of();
        boolean choice = (elements != null && elements.value().length > 1) || refs != null || !substitutes.isEmpty();
        if (!choice && !mixed && !wildcard) {
            return null;
        }
        List<Alternative> alternatives = new ArrayList<>();
        if (elements != null) {
            for (XmlElement e : elements.value()) {
                // An alternative that leaves its type out has the property's own: naming items by the annotation's
                // placeholder class matched none of them, and every record holding one was refused.
                Class<?> type = e.type() == XmlElement.DEFAULT.class ? itemClassOf(f) : e.type();
                alternatives.add(new Alternative(
                        "##default".equals(e.namespace()) ? defaultElementNamespace(owner) : e.namespace(),
                        "##default".equals(e.name()) ? f.getName() : e.name(), type, e.nillable()));
            }
        }
        Map<QName, Declared> declared = new LinkedHashMap<>();
        for (XmlElementRef r : allRefs) {
            QName name = refName(r, ownNamespace);
            boolean wrapped = r.type() == JAXBElement.class;
            ObjectFactories.ElementDecl decl = wrapped ? References.declarationOf(name, owner, registries) : null;
            boolean reference = decl != null && decl.reference();
            Class<?> type = wrapped ? ObjectFactories.declaredValueType(name, registries) : r.type();
            declared.put(name, new Declared(name, type, wrapped, reference, reference && decl.list()));
            declared.putAll(r == ref ? substitutes : ObjectFactories.substitutesOf(name, registries));
        }
        // A substitution group's head keeps its element's name, as an element property would; a choice,
        // mixed content or wildcard has none of its own, so it goes by xjc's field name.
        boolean head = ref != null && elements == null && refs == null && !mixed && !wildcard;
        String property = head && !"##default".equals(ref.name()) ? ref.name() : f.getName();
        return new ElementNames(property, alternatives, declared, mixed, wildcard, ownNamespace);
    }

    /** A field's element references: those of its {@code @XmlElementRefs}, then its {@code @XmlElementRef}. */
    private static List<XmlElementRef> refsOf(Field f) {
        List<XmlElementRef> refs = new ArrayList<>();
        XmlElementRefs many = f.getAnnotation(XmlElementRefs.class);
        if (many != null) {
            refs.addAll(List.of(many.value()));
        }
        XmlElementRef one = f.getAnnotation(XmlElementRef.class);
        if (one != null) {
            refs.add(one);
        }
        return refs;
    }

    /** The property's name: the head's element name for a substitution group, else the field's. */
    public String property() {
        return property;
    }

    /** Whether an item may be null: a nil alternative of an {@code @XmlElements} choice. */
    public boolean mayHoldNull() {
        return alternatives.stream().anyMatch(Alternative::nillable);
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

    /** Whether this item is an xs:IDREF, to be written as the ID it names rather than as what JAXB bound it to. */
    public boolean isReference(Object item) {
        if (!references || !(item instanceof JAXBElement<?> e)) {
            return false;
        }
        Declared d = declared.get(e.getName());
        return d != null && d.reference();
    }

    /** Whether this item is a piece of text rather than an element (null, a nil alternative, is neither). */
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
        Alternative named = alternativeOf(item.getClass());
        if (named != null) {
            return named.name();
        }
        QName root = rootElementOf(item.getClass());
        if (root != null) {
            return named(root);
        }
        throw new IllegalStateException("cannot tell which element a " + item.getClass().getName()
                + " in this property was");
    }

    /**
     * The alternative JAXB's items of this class stand for: the one of exactly that type, else the
     * nearest of its supertypes (an xsi:type's subclass), as JAXB writes the item back; null for none.
     */
    public Alternative alternativeOf(Class<?> type) {
        Alternative nearest = null;
        for (Alternative a : alternatives) {
            if (a.type() == type) {
                return a;
            }
            if (a.type().isAssignableFrom(type) && (nearest == null || nearest.type().isAssignableFrom(a.type()))) {
                nearest = a;
            }
        }
        return nearest;
    }

    /** The class of one item of a field: a collection's or an array's item class, else the field's. */
    static Class<?> itemClassOf(Field f) {
        java.lang.reflect.Type item = itemTypeOf(f);
        if (item instanceof ParameterizedType p) {
            item = p.getRawType();
        }
        return item instanceof Class<?> c ? c : Object.class;
    }

    /** Whether the field holds several elements' values: a collection, or an array other than binary's byte[]. */
    public static boolean repeats(Field f) {
        return Collection.class.isAssignableFrom(f.getType()) || (f.getType().isArray() && f.getType() != byte[].class);
    }

    /** The type one element of the property binds to: a list's or an array's item type, else the field's. */
    public static java.lang.reflect.Type itemTypeOf(Field f) {
        if (!repeats(f)) {
            return f.getGenericType();
        }
        return f.getType().isArray() ? f.getType().getComponentType()
                : f.getGenericType() instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
    }

    private String named(QName name) {
        String json = jsonNames.get(name);
        if (json != null) {
            return json;
        }
        if (wildcard) {
            return wildcardName(name);
        }
        // JAXB bound a substitute from a factory the names were not read from (one JAXB reached by
        // itself): its local name, unless a declared element has it, whose items it must not pass for.
        boolean taken = jsonNames.keySet().stream().anyMatch(n -> n.getLocalPart().equals(name.getLocalPart()));
        return taken ? qualified(name) : name.getLocalPart();
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

    /** The element an {@code @XmlElementRef} of a field of {@code owner} names, as JAXB works it out. */
    static QName refName(XmlElementRef r, Class<?> owner) {
        return refName(r, namespaceOf(owner));
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
     * Adds to {@code heads} the elements {@code type}'s own fields refer to as JAXBElements (heads
     * of substitution groups among them), and to {@code next} the bound classes it leads to: its
     * fields' types, the alternatives of its choices, its superclass and what it names in
     * {@code @XmlSeeAlso}, as JAXB follows them.
     */
    static void references(Class<?> type, Set<QName> heads, Collection<Class<?>> next) {
        if (type.isEnum() || !(type.isAnnotationPresent(XmlType.class) || type.isAnnotationPresent(XmlRootElement.class))) {
            return;
        }
        try {
            String own = namespaceOf(type);
            for (Field f : type.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                for (XmlElementRef r : refsOf(f)) {
                    if (r.type() == JAXBElement.class) {
                        heads.add(refName(r, own));
                    } else {
                        next.add(r.type());
                    }
                }
                XmlElements elements = f.getAnnotation(XmlElements.class);
                if (elements != null) {
                    for (XmlElement e : elements.value()) {
                        next.add(e.type());
                    }
                }
                classesOf(f.getGenericType(), next);
            }
            if (type.getSuperclass() != null) {
                next.add(type.getSuperclass());
            }
            XmlSeeAlso seeAlso = type.getAnnotation(XmlSeeAlso.class);
            if (seeAlso != null) {
                next.addAll(List.of(seeAlso.value()));
            }
        } catch (TypeNotPresentException | LinkageError e) {
            // A class that does not load fully: JAXB reports it when it builds the context.
        }
    }

    private static void classesOf(java.lang.reflect.Type t, Collection<Class<?>> into) {
        if (t instanceof Class<?> c) {
            into.add(c.isArray() ? c.getComponentType() : c);
        } else if (t instanceof ParameterizedType p) {
            classesOf(p.getRawType(), into);
            for (java.lang.reflect.Type a : p.getActualTypeArguments()) {
                classesOf(a, into);
            }
        } else if (t instanceof java.lang.reflect.WildcardType w) {
            for (java.lang.reflect.Type b : w.getUpperBounds()) {
                classesOf(b, into);
            }
        }
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

    /**
     * The namespace of the element a field of {@code owner} binds, as JAXB works it out: the
     * annotation's, else the owner's namespace when its package qualifies elements, else none.
     */
    public static String elementNamespace(Field f, Class<?> owner) {
        XmlElement e = f.getAnnotation(XmlElement.class);
        if (e != null && !"##default".equals(e.namespace())) {
            return e.namespace();
        }
        XmlElementRef r = f.getAnnotation(XmlElementRef.class);
        if (r != null) {
            return refName(r, owner).getNamespaceURI();
        }
        return defaultElementNamespace(owner);
    }

    /**
     * The namespace of the attribute a field of {@code owner} binds, as JAXB works it out: the
     * annotation's, else the owner's namespace when its package qualifies attributes, else none.
     */
    public static String attributeNamespace(Field f, Class<?> owner) {
        XmlAttribute a = f.getAnnotation(XmlAttribute.class);
        if (a != null && !"##default".equals(a.namespace())) {
            return a.namespace();
        }
        Package p = owner.getPackage();
        XmlSchema schema = p == null ? null : p.getAnnotation(XmlSchema.class);
        return schema != null && schema.attributeFormDefault() == XmlNsForm.QUALIFIED ? typeNamespaceOf(owner) : "";
    }

    /**
     * The namespace JAXB gives a class's type, and a qualified attribute of it: its @XmlType's, else
     * its package's @XmlSchema's. Never its @XmlRootElement's, which is the element's alone.
     */
    private static String typeNamespaceOf(Class<?> type) {
        XmlType t = type.getAnnotation(XmlType.class);
        return t != null && !"##default".equals(t.namespace()) ? t.namespace() : schemaNamespaceOf(type);
    }

    private static String defaultElementNamespace(Class<?> owner) {
        Package p = owner.getPackage();
        XmlSchema schema = p == null ? null : p.getAnnotation(XmlSchema.class);
        return schema != null && schema.elementFormDefault() == XmlNsForm.QUALIFIED ? namespaceOf(owner) : "";
    }

    /**
     * The XML type name a class declares with {@code @XmlType}: an empty local part for an anonymous
     * type (which no xsi:type can name); null when the class leaves the name to JAXB's defaults.
     */
    public static QName declaredTypeName(Class<?> type) {
        XmlType t = type.getAnnotation(XmlType.class);
        if (t == null || "##default".equals(t.name())) {
            return null;
        }
        return new QName(t.name().isEmpty() ? "" : typeNamespaceOf(type), t.name());
    }

    /** The target namespace of a class's XML type, as JAXB works it out. */
    static String namespaceOf(Class<?> type) {
        XmlType t = type.getAnnotation(XmlType.class);
        if (t != null && !"##default".equals(t.namespace())) {
            return t.namespace();
        }
        XmlRootElement root = type.getAnnotation(XmlRootElement.class);
        if (root != null && !"##default".equals(root.namespace())) {
            return root.namespace(); // xjc -npa: no package-info, the namespace on each annotation
        }
        return schemaNamespaceOf(type);
    }

    static String schemaNamespaceOf(Class<?> type) {
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
