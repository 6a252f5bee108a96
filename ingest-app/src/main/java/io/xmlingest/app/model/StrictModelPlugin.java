package io.xmlingest.app.model;

import com.sun.codemodel.JAnnotationUse;
import com.sun.codemodel.JClass;
import com.sun.codemodel.JClassAlreadyExistsException;
import com.sun.codemodel.JCodeModel;
import com.sun.codemodel.JDefinedClass;
import com.sun.codemodel.JExpr;
import com.sun.codemodel.JFieldVar;
import com.sun.codemodel.JMethod;
import com.sun.codemodel.JMod;
import com.sun.codemodel.JType;
import com.sun.codemodel.JVar;
import com.sun.tools.xjc.Options;
import com.sun.tools.xjc.Plugin;
import com.sun.tools.xjc.model.CAdapter;
import com.sun.tools.xjc.model.CBuiltinLeafInfo;
import com.sun.tools.xjc.model.CElementInfo;
import com.sun.tools.xjc.model.Model;
import com.sun.tools.xjc.outline.ClassOutline;
import com.sun.tools.xjc.outline.EnumOutline;
import com.sun.tools.xjc.outline.FieldOutline;
import com.sun.tools.xjc.outline.Outline;
import com.sun.tools.xjc.outline.PackageOutline;
import com.sun.xml.xsom.XSAttributeDecl;
import com.sun.xml.xsom.XSAttributeUse;
import com.sun.xml.xsom.XSComplexType;
import com.sun.xml.xsom.XSComponent;
import com.sun.xml.xsom.XSElementDecl;
import com.sun.xml.xsom.XSFacet;
import com.sun.xml.xsom.XSParticle;
import com.sun.xml.xsom.XSSimpleType;
import com.sun.xml.xsom.XSType;
import io.xmlingest.core.bind.StrictEnumAdapter;
import jakarta.xml.bind.annotation.XmlElementDecl;
import jakarta.xml.bind.annotation.adapters.CollapsedStringAdapter;
import jakarta.xml.bind.annotation.adapters.NormalizedStringAdapter;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import org.xml.sax.ErrorHandler;

/**
 * What the global bindings cannot do for a strict model, done on the code xjc generates.
 *
 * <p>Lists: xjc cannot put a global javaType's adapter on the items of an {@code xs:list}, so a
 * list of xs:int becomes a {@code List<String>}, unchecked and written as JSON strings. Such a
 * field gets its Java item type back and an item adapter calling the same strict parser.
 *
 * <p>Enumerations: makes every enumeration xjc generates bind strictly. JAXB's runtime binds an unknown value of
 * an enum as null without a word (see {@link StrictEnumAdapter}); there is no setting for that,
 * so each enum class gets a nested {@code Strict} adapter and carries it as a class-level
 * {@code @XmlJavaTypeAdapter}, which JAXB applies to every property of that type, lists
 * included. JAXB does not look at the class for an element declaration's value (the
 * {@code JAXBElement} of a nillable or substituted element), so the object factories' declarations
 * of an enum type name the adapter too.
 *
 * <p>Whitespace: a string type of the schema's own restricted with {@code whiteSpace="collapse"} or
 * {@code "replace"} gets the adapter xjc gives xs:token or xs:normalizedString, on the field, or on
 * the element's declaration when it binds to a {@code JAXBElement}, in place of the one xjc chose by
 * the built-in type it derives from.
 *
 * <p>Fixed values: an empty element takes its declaration's fixed value, which xjc leaves out (see
 * {@link FixedElementValues}).
 */
final class StrictModelPlugin extends Plugin {

    /** A global javaType binding: the Java type and the static methods that parse and print it. */
    record Conversion(String javaType, String parseMethod, String printMethod) {
    }

    private final Map<String, Conversion> conversions;
    private final List<String> unenforced;
    private final List<javax.xml.namespace.QName> nillableReferences;
    private final Map<javax.xml.namespace.QName, List<javax.xml.namespace.QName>> abstracts;

    /**
     * @param conversions by XML Schema built-in type name (int, date, ...)
     * @param unenforced  receives, for each property whose type restricts it to an enumeration that xjc does not
     *                    make a Java enum, where it is: only record.schema then holds its values to the enumeration
     * @param nillableReferences receives the nillable global elements a class holds in a plain field, which lose
     *                    their nil mark there (see {@link NillableReferences})
     * @param abstracts   receives each abstract global element with the concrete elements of its substitution group
     */
    StrictModelPlugin(Map<String, Conversion> conversions, List<String> unenforced,
                      List<javax.xml.namespace.QName> nillableReferences,
                      Map<javax.xml.namespace.QName, List<javax.xml.namespace.QName>> abstracts) {
        this.conversions = Map.copyOf(conversions);
        this.unenforced = unenforced;
        this.nillableReferences = nillableReferences;
        this.abstracts = abstracts;
    }

    @Override
    public String getOptionName() {
        return "Xxmlingest-strict";
    }

    @Override
    public String getUsage() {
        return "  -Xxmlingest-strict : strict enumerations, list items through the global bindings' parsers, "
                + "fixed values of empty elements";
    }

    @Override
    public void postProcessModel(Model model, ErrorHandler errors) {
        nillableReferences.addAll(NillableReferences.in(model));
        for (java.util.Iterator<XSElementDecl> it = model.schemaComponent.iterateElementDecls(); it.hasNext(); ) {
            XSElementDecl e = it.next();
            if (e.isAbstract()) {
                abstracts.put(new javax.xml.namespace.QName(e.getTargetNamespace(), e.getName()), e.getSubstitutables()
                        .stream().filter(s -> !s.isAbstract())
                        .map(s -> new javax.xml.namespace.QName(s.getTargetNamespace(), s.getName()))
                        .sorted(java.util.Comparator.comparing(javax.xml.namespace.QName::toString)).toList());
            }
        }
        FixedElementValues.apply(model);
        for (CElementInfo e : model.getAllElements()) {
            whitespaceFacet(e);
        }
    }

    @Override
    public boolean run(Outline outline, Options options, ErrorHandler errors) {
        Map<String, JDefinedClass> adapters = new HashMap<>();
        for (EnumOutline e : outline.getEnums()) {
            adapters.put(e.clazz.fullName(), adapter(e));
        }
        for (PackageOutline p : outline.getAllPackageContexts()) {
            for (JMethod m : p.objectFactory().methods()) {
                JVar[] params = m.listParams();
                JDefinedClass adapter = params.length == 1 ? adapters.get(params[0].type().fullName()) : null;
                if (adapter != null && declaresElement(m)) {
                    m.annotate(XmlJavaTypeAdapter.class).param("value", adapter);
                }
            }
        }
        for (CElementInfo e : outline.getModel().getAllElements()) {
            whitespaceFacet(outline, e);
        }
        for (ClassOutline c : outline.getClasses()) {
            for (FieldOutline f : c.getDeclaredFields()) {
                typedListItems(c, f);
                whitespaceFacet(c, f);
                unenforcedEnumeration(c, f, adapters.keySet());
            }
        }
        return true;
    }

    /**
     * A property of a type restricted to an enumeration that xjc binds to its base type, not a Java enum (values
     * it cannot name, such as "" or "a b", or numbers): any value of the base type binds, so only record.schema
     * refuses one outside the enumeration. Said once at compile time, as the README says it.
     */
    private void unenforcedEnumeration(ClassOutline c, FieldOutline f, java.util.Set<String> enums) {
        if (f.getPropertyInfo() instanceof com.sun.tools.xjc.model.CReferencePropertyInfo ref) {
            // A list of elements (a repeated choice, mixed content): each element holds its own values.
            boolean one = ref.getElements().size() == 1 && !ref.isCollection();
            for (com.sun.tools.xjc.model.CElement e : ref.getElements()) {
                if (e instanceof com.sun.tools.xjc.model.CElementInfo info && unenforced.size() <= 10
                        && !(info.getContentType() instanceof com.sun.tools.xjc.model.CEnumLeafInfo)) {
                    QName name = info.getElementName();
                    // A global element's info has no component of its own; its declaration is the schema set's.
                    XSComponent declared = info.getSchemaComponent() != null ? info.getSchemaComponent()
                            : c.parent().getModel().schemaComponent.getElementDecl(name.getNamespaceURI(),
                                    name.getLocalPart());
                    XSSimpleType type = simpleType(declared);
                    if (type != null && enumerated(type)) {
                        unenforced.add(c.implClass.name() + "." + f.getPropertyInfo().getName(false)
                                + (one ? "" : " <" + name.getLocalPart() + ">")
                                + (type.isLocal() ? "" : " (" + type.getName() + ")"));
                    }
                }
            }
            return;
        }
        XSSimpleType type = simpleType(f.getPropertyInfo().getSchemaComponent());
        if (type == null || !enumerated(type) || unenforced.size() > 10) {
            return;
        }
        JFieldVar field = c.implClass.fields().get(f.getPropertyInfo().getName(false));
        String java = field == null ? "" : field.type().fullName();
        if (enums.stream().anyMatch(java::contains)) {
            return;
        }
        unenforced.add(c.implClass.name() + "." + f.getPropertyInfo().getName(false)
                + (type.isLocal() ? "" : " (" + type.getName() + ")"));
    }

    /** Whether the type, or one it restricts, lists its values (xs:enumeration). */
    private static boolean enumerated(XSSimpleType type) {
        for (XSSimpleType t = type; t != null && !XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(t.getTargetNamespace());
             t = t.getSimpleBaseType()) {
            if (t.isRestriction() && !t.asRestriction().getDeclaredFacets(XSFacet.FACET_ENUMERATION).isEmpty()) {
                return true;
            }
            if (t == t.getSimpleBaseType()) {
                break;
            }
        }
        return false;
    }

    /**
     * A string type of the schema's own restricted with {@code whiteSpace="collapse"} or {@code "replace"}:
     * xjc gives such a field no adapter (it does for xs:token and xs:normalizedString themselves), so JAXB
     * kept the text as written, and a value that record.schema accepted collapsed was published with its
     * line ends and indentation. The field gets the adapter of the built-in type that whitespaces alike.
     */
    private static void whitespaceFacet(ClassOutline c, FieldOutline f) {
        Class<? extends XmlAdapter<String, String>> adapter =
                whitespaceAdapter(simpleType(f.getPropertyInfo().getSchemaComponent()));
        JFieldVar field = c.implClass.fields().get(f.getPropertyInfo().getName(false));
        // A repeated element's list takes the adapter for each item; an optional nillable one's JAXBElement, from
        // its declaration (below).
        if (adapter == null || field == null || !(field.type().fullName().equals(String.class.getName())
                || field.type().fullName().equals("java.util.List<java.lang.String>"))) {
            return;
        }
        CAdapter xjcs = f.getPropertyInfo().getAdapter();
        if (xjcs != null && xjcs.getAdapterIfKnown() == adapter) {
            return;
        }
        for (JAnnotationUse a : field.annotations()) {
            if (a.getAnnotationClass().fullName().equals(XmlJavaTypeAdapter.class.getName())) {
                // xjc's for the built-in type the type derives from (NormalizedStringAdapter for one of
                // xs:normalizedString's that collapses) gives way; a javaType binding's whitespaces the value itself.
                if (xjcs == null || !xjcs.isWhitespaceAdapter()) {
                    return;
                }
                field.removeAnnotation(a);
                break;
            }
        }
        field.annotate(XmlJavaTypeAdapter.class).param("value", adapter);
    }

    /**
     * The same for an element xjc binds to a {@code JAXBElement} (an optional nillable one, a global one): JAXB
     * takes the adapter of its value from the object factory's declaration of it, which no field's reaches. Given
     * to xjc's model of the element, as xs:token's is, xjc writes it on that declaration itself.
     */
    private static void whitespaceFacet(CElementInfo e) {
        Class<? extends XmlAdapter<String, String>> adapter = whitespaceAdapter(simpleType(e.getSchemaComponent()));
        // Held as a String with no adapter of its own: an adapter (a javaType binding's) whitespaces the value itself;
        // xjc's whitespace one is replaced on the declaration xjc writes (below), as its model keeps the first it has.
        if (adapter != null && e.getContentType() == CBuiltinLeafInfo.STRING && e.getProperty().getAdapter() == null) {
            e.getProperty().setAdapter(new CAdapter(adapter, false));
        }
    }

    /**
     * An element bound to a {@code JAXBElement} of a type whose whitespace facet xjc's adapter does not match (one of
     * xs:normalizedString's restricted to collapse): the adapter on its object factory's declaration is replaced.
     */
    private static void whitespaceFacet(Outline outline, CElementInfo e) {
        Class<? extends XmlAdapter<String, String>> adapter = whitespaceAdapter(simpleType(e.getSchemaComponent()));
        CAdapter xjcs = e.getProperty().getAdapter();
        if (adapter == null || xjcs == null || !xjcs.isWhitespaceAdapter() || xjcs.getAdapterIfKnown() == adapter) {
            return;
        }
        JDefinedClass factory = outline.getPackageContext(e._package()).objectFactory();
        // xjc's ObjectFactoryGenerator names it so.
        JMethod m = factory.getMethod("create" + e.getSqueezedName(), new JType[] {outline.getCodeModel().ref(String.class)});
        if (m == null) {
            throw new IllegalStateException("no method create" + e.getSqueezedName() + "(String) on " + factory.fullName()
                    + " to give the adapter of element " + e.getElementName() + "'s whitespace facet");
        }
        for (JAnnotationUse a : List.copyOf(m.annotations())) {
            if (a.getAnnotationClass().fullName().equals(XmlJavaTypeAdapter.class.getName())) {
                m.removeAnnotation(a);
            }
        }
        m.annotate(XmlJavaTypeAdapter.class).param("value", adapter);
    }

    /**
     * The adapter of the built-in type that whitespaces as {@code type} does; null when it keeps its whitespace or
     * declares no whiteSpace facet of its own (xjc chose the adapter of the built-in type it derives from, which is
     * then right). The facet in effect may be stricter than that built-in type's: one of xs:normalizedString's
     * restricted to collapse.
     */
    private static Class<? extends XmlAdapter<String, String>> whitespaceAdapter(XSSimpleType type) {
        if (type == null || type.isList() || type.isUnion() || !declaresWhitespace(type)) {
            return null;
        }
        return switch (whitespace(type)) {
            case COLLAPSE -> CollapsedStringAdapter.class;
            case REPLACE -> NormalizedStringAdapter.class;
            case PRESERVE -> null;
        };
    }

    /** Whether a type of the schema's own in {@code type}'s derivation chain declares a whiteSpace facet. */
    private static boolean declaresWhitespace(XSSimpleType type) {
        for (XSSimpleType t = type; t != null && !XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(t.getTargetNamespace());
             t = t.getSimpleBaseType()) {
            if (t.isRestriction() && t.asRestriction().getDeclaredFacet(XSFacet.FACET_WHITESPACE) != null) {
                return true;
            }
            if (t == t.getSimpleBaseType()) {
                break;
            }
        }
        return false;
    }

    private static StrictEnumAdapter.Whitespace builtIn(String name) {
        return switch (name) {
            case "string", "anySimpleType" -> StrictEnumAdapter.Whitespace.PRESERVE;
            case "normalizedString" -> StrictEnumAdapter.Whitespace.REPLACE;
            default -> StrictEnumAdapter.Whitespace.COLLAPSE;
        };
    }

    private void typedListItems(ClassOutline c, FieldOutline f) {
        XSSimpleType list = simpleType(f.getPropertyInfo().getSchemaComponent());
        Conversion conversion = list != null && list.isList() ? conversionOf(list.asList().getItemType()) : null;
        JFieldVar field = c.implClass.fields().get(f.getPropertyInfo().getName(false));
        if (conversion == null || field == null || !field.type().fullName().equals("java.util.List<java.lang.String>")) {
            return;
        }
        JCodeModel code = c.implClass.owner();
        JClass item = (JClass) code.parseType(conversion.javaType());
        JClass typed = code.ref(List.class).narrow(item);
        JType untyped = field.type();
        field.type(typed);
        field.annotate(XmlJavaTypeAdapter.class).param("value", itemAdapter(c.implClass, field.name(), item, conversion));
        for (JMethod m : c.implClass.methods()) {
            if (m.type() == untyped && m.name().equals("get" + f.getPropertyInfo().getName(true))) {
                m.type(typed);
            }
        }
    }

    private static JDefinedClass itemAdapter(JDefinedClass owner, String field, JClass item, Conversion conversion) {
        String name = Character.toUpperCase(field.charAt(0)) + field.substring(1) + "Items";
        JDefinedClass adapter = null;
        for (int n = 1; adapter == null; n++) {
            try {
                adapter = owner._class(JMod.PUBLIC | JMod.STATIC | JMod.FINAL, n == 1 ? name : name + n);
            } catch (JClassAlreadyExistsException taken) {
                // try the next name
            }
        }
        JCodeModel code = owner.owner();
        adapter._extends(code.ref(XmlAdapter.class).narrow(code.ref(String.class), item));
        adapter.javadoc().add("The items of " + field + ", each through the strict parser of its type.");
        JMethod unmarshal = adapter.method(JMod.PUBLIC, item, "unmarshal");
        JVar text = unmarshal.param(String.class, "value");
        unmarshal.body()._return(JExpr.direct(conversion.parseMethod() + "(" + text.name() + ")"));
        JMethod marshal = adapter.method(JMod.PUBLIC, String.class, "marshal");
        JVar value = marshal.param(item, "value");
        marshal.body()._return(JExpr.direct(conversion.printMethod() + "(" + value.name() + ")"));
        return adapter;
    }

    /** The nearest built-in type with a strict conversion that the type is, or derives from. */
    private Conversion conversionOf(XSSimpleType type) {
        for (XSSimpleType t = type; t != null; t = t.getSimpleBaseType()) {
            if (XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(t.getTargetNamespace()) && conversions.containsKey(t.getName())) {
                return conversions.get(t.getName());
            }
            if (t == t.getSimpleBaseType()) {
                break;
            }
        }
        return null;
    }

    private static XSSimpleType simpleType(XSComponent source) {
        XSType type = null;
        if (source instanceof XSParticle p && p.getTerm().isElementDecl()) {
            type = p.getTerm().asElementDecl().getType();
        } else if (source instanceof XSElementDecl e) {
            type = e.getType();
        } else if (source instanceof XSAttributeUse a) {
            type = a.getDecl().getType();
        } else if (source instanceof XSAttributeDecl a) {
            type = a.getType();
        } else if (source instanceof XSComplexType t) {
            type = t.getContentType().asSimpleType();
        } else if (source instanceof XSSimpleType t) {
            type = t; // the text of a simpleContent extension (an @XmlValue), as xjc's model gives it
        }
        return type != null && type.isSimpleType() ? type.asSimpleType() : null;
    }

    private static JDefinedClass adapter(EnumOutline e) {
        JDefinedClass strict;
        try {
            strict = e.clazz._class(JMod.PUBLIC | JMod.STATIC | JMod.FINAL, "Strict");
        } catch (JClassAlreadyExistsException clash) {
            throw new IllegalStateException("enum " + e.clazz.fullName() + " already has a nested class Strict", clash);
        }
        strict._extends(e.clazz.owner().ref(StrictEnumAdapter.class).narrow(e.clazz));
        strict.javadoc().add("Binds " + e.clazz.name() + " strictly: an unknown value is an error, not a null.");
        strict.constructor(JMod.PUBLIC).body().invoke("super")
                .arg(e.clazz.dotclass())
                .arg(e.clazz.owner().ref(StrictEnumAdapter.Whitespace.class).staticRef(whitespace(e).name()));
        e.clazz.annotate(XmlJavaTypeAdapter.class).param("value", strict);
        return strict;
    }

    private static boolean declaresElement(JMethod m) {
        for (JAnnotationUse a : m.annotations()) {
            if (a.getAnnotationClass().fullName().equals(XmlElementDecl.class.getName())) {
                return true;
            }
        }
        return false;
    }

    /** The base type's whiteSpace facet: the nearest declared one, else the built-in type's. */
    static StrictEnumAdapter.Whitespace whitespace(EnumOutline e) {
        return whitespace(e.target.getSchemaComponent() instanceof XSSimpleType s ? s : null);
    }

    /**
     * The whiteSpace facet in effect for {@code type}: the nearest declared one, else the built-in type's. A
     * restriction may only tighten it, so the nearest is also the strictest of the derivation chain.
     */
    static StrictEnumAdapter.Whitespace whitespace(XSSimpleType type) {
        for (XSSimpleType t = type; t != null; t = t.getSimpleBaseType()) {
            XSFacet declared = t.isRestriction() ? t.asRestriction().getDeclaredFacet(XSFacet.FACET_WHITESPACE) : null;
            if (declared != null) {
                return StrictEnumAdapter.Whitespace.valueOf(declared.getValue().value.toUpperCase(java.util.Locale.ROOT));
            }
            if (XMLConstants.W3C_XML_SCHEMA_NS_URI.equals(t.getTargetNamespace())) {
                return builtIn(t.getName());
            }
            if (t == t.getSimpleBaseType()) {
                break;
            }
        }
        return StrictEnumAdapter.Whitespace.PRESERVE;
    }
}
