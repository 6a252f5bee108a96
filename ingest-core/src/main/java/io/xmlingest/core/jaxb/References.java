package io.xmlingest.core.jaxb;

import jakarta.xml.bind.annotation.XmlID;
import jakarta.xml.bind.annotation.XmlIDREF;
import java.lang.reflect.Field;
import java.util.List;

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

    public static boolean isReference(JaxbProperty p) {
        return p.field() != null && p.field().isAnnotationPresent(XmlIDREF.class);
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
