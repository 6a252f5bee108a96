package io.xmlingest.core.jaxb;

import io.xmlingest.core.jaxb.ElementNames.Declared;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlElementDecl;
import jakarta.xml.bind.annotation.XmlIDREF;
import jakarta.xml.bind.annotation.XmlRegistry;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * What a model's object factories ({@code @XmlRegistry} classes) declare. A field's annotations
 * do not say everything JAXB binds by: the members of a substitution group, what a head or an
 * optional nillable element holds, and whether it is an xs:IDREF are on the factory's
 * {@code @XmlElementDecl}s, so naming items ({@link ElementNames}), telling references
 * ({@link References}) and choosing factories for a context ({@link SubstitutionFactories}) all
 * read them here, once per factory.
 */
public final class ObjectFactories {

    private ObjectFactories() {
    }

    /**
     * The elements that may stand in for {@code head} (its substitution group, followed step by
     * step), as xjc declares them in the model's object factories: the owner's package's, any the
     * owner names in {@code @XmlSeeAlso}, and those beside the model's classes that declare
     * substitutes ({@link SubstitutionFactories}, which the record model adds to its JAXB context
     * for the same reason). A substitute declared only elsewhere is not found; the encoder then
     * refuses a record holding it rather than write it under the head's name.
     */
    static Map<QName, Declared> substitutesOf(QName head, List<Class<?>> registries) {
        Map<QName, Declared> found = new LinkedHashMap<>();
        List<QName> heads = new ArrayList<>(List.of(head));
        for (int i = 0; i < heads.size(); i++) {
            QName h = heads.get(i);
            for (Class<?> registry : registries) {
                for (ElementDecl d : DECLARATIONS.get(registry)) {
                    if (h.equals(d.head()) && !found.containsKey(d.name()) && !d.name().equals(head)) {
                        found.put(d.name(), new Declared(d.name(), d.type(), true, d.reference(), d.reference() && d.list()));
                        heads.add(d.name());
                    }
                }
            }
        }
        return found;
    }

    /**
     * What the element {@code name} holds, as the object factory declaring it says (a head's own
     * value, which its {@code @XmlElementRef} leaves as JAXBElement); JAXBElement when none says.
     */
    static Class<?> declaredValueType(QName name, List<Class<?>> registries) {
        for (Class<?> registry : registries) {
            for (ElementDecl d : DECLARATIONS.get(registry)) {
                if (d.name().equals(name) && d.type() != Object.class) {
                    return d.type();
                }
            }
        }
        return JAXBElement.class;
    }

    /**
     * An element an object factory declares, the head of its substitution group (null if none), what it
     * holds, the class it is local to ({@code XmlElementDecl.GLOBAL} for a global one), and whether it
     * is an xs:IDREF ({@code @XmlIDREF} on the declaration); {@code list} when what it holds is a list, which
     * {@code type} cannot say (it is Object then).
     */
    record ElementDecl(QName name, QName head, Class<?> type, Class<?> scope, boolean reference, boolean list) {
        boolean global() {
            return scope == XmlElementDecl.GLOBAL.class;
        }
    }

    /**
     * The classes the model declares {@code element} with, as seen from {@code near}: its own
     * {@code @XmlRootElement}, the classes the object factories beside it make for that element, and
     * their {@code @XmlElementDecl}s of it. Empty when the model does not declare the element there.
     */
    public static Set<Class<?>> classesDeclaredFor(QName element, Class<?> near) {
        Set<Class<?>> found = new LinkedHashSet<>();
        if (element.equals(ElementNames.rootElementOf(near))) {
            found.add(near);
        }
        for (Class<?> registry : registriesOf(near)) {
            for (ElementDecl d : DECLARATIONS.get(registry)) {
                if (d.global() && d.name().equals(element) && d.type() != Object.class) {
                    found.add(d.type());
                }
            }
            try {
                for (Method m : registry.getDeclaredMethods()) {
                    if (element.equals(ElementNames.rootElementOf(m.getReturnType()))) {
                        found.add(m.getReturnType());
                    }
                }
            } catch (LinkageError | TypeNotPresentException e) {
                // a factory whose types do not all load: what its declarations name is all it tells
            }
        }
        return found;
    }

    /** What {@code registry} declares, read once per factory. */
    static List<ElementDecl> declarations(Class<?> registry) {
        return DECLARATIONS.get(registry);
    }

    /**
     * The names of the global elements {@code registry} declares: with {@code @XmlElementDecl}, and
     * the root elements of the classes its methods make (xjc's factory has one for each).
     */
    static List<QName> declaredElements(Class<?> registry) {
        // A scoped declaration (xjc's for an optional nillable local element) is its type's alone: two
        // namespaces' types may each have an unqualified <note>, and JAXB takes both.
        List<QName> names = new ArrayList<>(DECLARATIONS.get(registry).stream().filter(ElementDecl::global)
                .map(ElementDecl::name).toList());
        try {
            for (Method m : registry.getDeclaredMethods()) {
                QName root = ElementNames.rootElementOf(m.getReturnType());
                if (root != null && !names.contains(root)) {
                    names.add(root);
                }
            }
        } catch (LinkageError | TypeNotPresentException e) {
            // A factory whose types do not all load claims what its declarations name.
        }
        return names;
    }

    // Read once per factory: a model's classes ask the same factory about each of their element references.
    private static final ClassValue<List<ElementDecl>> DECLARATIONS = new ClassValue<>() {
        @Override
        protected List<ElementDecl> computeValue(Class<?> registry) {
            List<ElementDecl> decls = new ArrayList<>();
            try {
                for (Method m : registry.getDeclaredMethods()) {
                    XmlElementDecl d = m.getAnnotation(XmlElementDecl.class);
                    if (d != null) {
                        QName head = "##default".equals(d.substitutionHeadName()) || d.substitutionHeadName().isEmpty()
                                ? null : new QName(declNamespace(d.substitutionHeadNamespace(), registry),
                                d.substitutionHeadName());
                        decls.add(new ElementDecl(new QName(declNamespace(d.namespace(), registry), d.name()), head,
                                elementValueType(m), d.scope(), m.isAnnotationPresent(XmlIDREF.class), holdsList(m)));
                    }
                }
            } catch (LinkageError | TypeNotPresentException e) {
                // A factory whose types do not all load declares nothing usable here; JAXB reports it itself.
            }
            return List.copyOf(decls);
        }
    };

    /** True when {@code registry} declares an element that stands in for another (a member of a substitution group). */
    static boolean declaresSubstitutes(Class<?> registry) {
        return DECLARATIONS.get(registry).stream().anyMatch(d -> d.head() != null);
    }

    /** The object factories the element references of {@code owner}'s fields are looked up in. */
    static List<Class<?>> registriesOf(Class<?> owner) {
        List<Class<?>> registries = new ArrayList<>();
        try {
            Class<?> factory = Class.forName(owner.getPackageName() + ".ObjectFactory", false, owner.getClassLoader());
            if (factory.isAnnotationPresent(XmlRegistry.class)) {
                registries.add(factory);
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // no object factory beside the class: nothing declared there
        }
        try {
            XmlSeeAlso seeAlso = owner.getAnnotation(XmlSeeAlso.class);
            if (seeAlso != null) {
                for (Class<?> c : seeAlso.value()) {
                    if (c.isAnnotationPresent(XmlRegistry.class) && !registries.contains(c)) {
                        registries.add(c);
                    }
                }
            }
        } catch (TypeNotPresentException | LinkageError e) {
            // a class named there does not load; JAXB reports it when it builds the context
        }
        for (Class<?> c : SubstitutionFactories.beside(owner)) {
            if (!registries.contains(c)) {
                registries.add(c);
            }
        }
        return registries;
    }

    private static String declNamespace(String declared, Class<?> registry) {
        return "##default".equals(declared) ? ElementNames.schemaNamespaceOf(registry) : declared;
    }

    /** X of a factory method returning {@code JAXBElement<X>}; Object when it cannot be told. */
    private static Class<?> elementValueType(Method m) {
        if (m.getGenericReturnType() instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] instanceof Class<?> c) {
            return c;
        }
        return Object.class;
    }

    private static boolean holdsList(Method m) {
        return m.getGenericReturnType() instanceof ParameterizedType p
                && p.getActualTypeArguments()[0] instanceof ParameterizedType value
                && value.getRawType() instanceof Class<?> c && java.util.Collection.class.isAssignableFrom(c);
    }
}
