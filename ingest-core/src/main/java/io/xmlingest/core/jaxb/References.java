package io.xmlingest.core.jaxb;

import jakarta.xml.bind.annotation.XmlID;
import jakarta.xml.bind.annotation.XmlIDREF;
import java.lang.reflect.Field;
import java.util.List;
import javax.xml.namespace.QName;

/**
 * xs:IDREF properties. JAXB binds a reference to the object whose xs:ID it names, so a writer
 * that follows it writes a copy of that object (or loops, when it is an ancestor) where the file
 * had a short ID; these write the ID instead, as the file has it.
 */
public final class References {
    private References() {
    }

    private static final ClassValue<boolean[]> REFERENCES = new ClassValue<>() {
        @Override
        protected boolean[] computeValue(Class<?> type) {
            List<JaxbProperty> properties = JaxbProperties.of(type);
            boolean[] refs = new boolean[properties.size()];
            for (int i = 0; i < refs.length; i++) {
                refs[i] = isReference(properties.get(i));
            }
            return refs;
        }
    };

    private static final ClassValue<Field> IDS = new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> type) {
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (f.isAnnotationPresent(XmlID.class)) {
                        f.setAccessible(true);
                        return f;
                    }
                }
            }
            return null;
        }
    };

    /**
     * Marked on its field, or, for an element held as a JAXBElement (an optional nillable one), on its
     * object factory's declaration, where xjc marks it. A choice's alternatives are told item by item
     * ({@link ElementNames#isReference}).
     */
    public static boolean isReference(JaxbProperty p) {
        if (p.field() == null) {
            return false;
        }
        Class<?> owner = p.field().getDeclaringClass();
        return p.field().isAnnotationPresent(XmlIDREF.class) || (p.element() != null
                && isDeclaredAsReference(p.element(), owner, ObjectFactories.registriesOf(owner)));
    }

    /**
     * Whether the declaration of {@code element} that a property of {@code owner} is bound by carries
     * {@code @XmlIDREF}. JAXB looks for one scoped to the owner or a class it extends (xjc's for a local
     * element), then a global one: two types may each have a local {@code <to>}, only one an IDREF.
     */
    static boolean isDeclaredAsReference(QName element, Class<?> owner, List<Class<?>> registries) {
        ObjectFactories.ElementDecl d = declarationOf(element, owner, registries);
        return d != null && d.reference();
    }

    /** The declaration JAXB binds {@code element} of a property of {@code owner} by; null when there is none. */
    static ObjectFactories.ElementDecl declarationOf(QName element, Class<?> owner, List<Class<?>> registries) {
        for (Class<?> scope = owner; scope != null && scope != Object.class; scope = scope.getSuperclass()) {
            for (Class<?> registry : registries) {
                for (ObjectFactories.ElementDecl d : ObjectFactories.declarations(registry)) {
                    if (d.scope() == scope && d.name().equals(element)) {
                        return d;
                    }
                }
            }
        }
        for (Class<?> registry : registries) {
            for (ObjectFactories.ElementDecl d : ObjectFactories.declarations(registry)) {
                if (d.global() && d.name().equals(element)) {
                    return d;
                }
            }
        }
        return null;
    }

    /** Which of {@code JaxbProperties.of(type)} are references, by position. */
    public static boolean[] of(Class<?> type) {
        return REFERENCES.get(type);
    }

    /** The xs:ID of the object a reference points to, as the file wrote it. */
    public static String idOf(Object target) {
        if (target instanceof ForeignReference foreign) {
            return foreign.id();
        }
        Field id = IDS.get(target.getClass());
        if (id == null) {
            throw new IllegalStateException(target.getClass().getName() + " is referred to by an xs:IDREF but has no @XmlID");
        }
        try {
            Object value = id.get(target);
            return value == null ? null : value.toString();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + id, e);
        }
    }
}
