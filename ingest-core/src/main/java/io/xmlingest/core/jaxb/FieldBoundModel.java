package io.xmlingest.core.jaxb;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.error.ConfigException;
import jakarta.xml.bind.JAXBContext;
import java.util.Map;
import org.glassfish.jaxb.runtime.v2.model.runtime.RuntimeClassInfo;
import org.glassfish.jaxb.runtime.v2.model.runtime.RuntimePropertyInfo;
import org.glassfish.jaxb.runtime.v2.runtime.IllegalAnnotationsException;
import org.glassfish.jaxb.runtime.v2.runtime.JAXBContextImpl;
import org.glassfish.jaxb.runtime.v2.runtime.reflect.Accessor;

/**
 * Checks, once at start, that every value JAXB binds in a model is one xmlingest writes. The
 * encoder reads a bound record from its fields, as xjc generates them (field access, protected
 * fields, {@code @XmlType}). A hand-written class bound another way was published without a word
 * of warning as its {@code toString()} (no {@code @XmlType} or {@code @XmlRootElement}), or without
 * the values JAXB had set through setters or in private fields. Such a model is refused instead,
 * naming the class and what to change. JAXB's own view of the model is asked, not a copy of its rules.
 */
public final class FieldBoundModel {
    private FieldBoundModel() {
    }

    /** @throws ConfigException naming record.class, for the first class xmlingest would not write whole */
    public static void check(JAXBContext context) {
        if (!(context instanceof JAXBContextImpl impl)) {
            return; // another JAXB runtime: its model cannot be asked, and the encoder's rules were made for this one
        }
        Map<Class, ? extends RuntimeClassInfo> beans;
        try {
            beans = impl.getTypeInfoSet().beans();
        } catch (IllegalAnnotationsException e) {
            return; // the context was built, so JAXB accepted the model; nothing more to learn here
        }
        for (Map.Entry<Class, ? extends RuntimeClassInfo> bean : beans.entrySet()) {
            Class<?> type = bean.getKey();
            for (RuntimePropertyInfo property : bean.getValue().getProperties()) {
                Accessor<?, ?> accessor = property.getAccessor();
                if (accessor instanceof Accessor.FieldReflection<?, ?> field
                        && java.lang.reflect.Modifier.isStatic(field.f.getModifiers())) {
                    continue; // a fixed attribute xjc makes a constant: not a value of the record
                }
                if (accessor instanceof Accessor.GetterSetterReflection<?, ?>
                        || accessor instanceof Accessor.GetterOnlyReflection<?, ?>
                        || accessor instanceof Accessor.SetterOnlyReflection<?, ?>) {
                    throw refused(type, "has its property '" + property.getName() + "' bound through a getter and "
                            + "setter (JAXB's access type PUBLIC_MEMBER, its default, or PROPERTY), and xmlingest reads "
                            + "bound values from fields: annotate it @XmlAccessorType(XmlAccessType.FIELD)");
                }
                // An adapted property's accessor wraps the field's and does not show it: its name does.
                JaxbProperty written = written(type, property.getName());
                if (written == null) {
                    throw refused(type, "has its property '" + property.getName() + "' bound by JAXB, but xmlingest "
                            + "does not write it: a private field without an annotation is bound under field access, "
                            + "and xmlingest writes unannotated fields only when they are protected or public. Annotate "
                            + "it @XmlElement (or @XmlAttribute), or make it protected");
                }
                if (written.field().isAnnotationPresent(jakarta.xml.bind.annotation.XmlElementWrapper.class)) {
                    // JAXB empties the list at each wrapper and drops what a wrapper holds besides the items,
                    // neither of which the checks see; and the wrapper's name is not written.
                    throw refused(type, "has its property '" + property.getName() + "' in an @XmlElementWrapper, "
                            + "which xmlingest does not take: JAXB keeps only the last wrapper's items and drops "
                            + "anything else in it without an error. Bind the wrapper element to a class of its own "
                            + "holding the list");
                }
                Class<?> held = heldClass(written.field());
                if (written.kind() != JaxbProperty.Kind.OTHER_ATTRIBUTES && !writable(held)
                        && Adapters.declaredOn(written.field()) == null) {
                    // Such a value (java.awt.Image, a DataHandler, a Source) was written as its toString().
                    throw refused(type, "has its property '" + property.getName() + "' of type " + held.getName()
                            + ", which xmlingest cannot write as its XML: give the field an @XmlJavaTypeAdapter to a "
                            + "type of XML Schema's (a String, a number, a date) or to a bound class");
                }
            }
        }
    }

    /**
     * Whether the encoder writes a field of that name for {@code type}: its own, or one it inherits
     * (JAXB gives a class the properties of an {@code @XmlTransient} superclass).
     */
    private static JaxbProperty written(Class<?> type, String name) {
        return JaxbProperties.of(type).stream().filter(p -> p.field().getName().equals(name)).findFirst().orElse(null);
    }

    /** The class one value of the field is: a list's items, what a JAXBElement holds. */
    private static Class<?> heldClass(java.lang.reflect.Field f) {
        java.lang.reflect.Type t = ElementNames.itemTypeOf(f);
        if (t instanceof java.lang.reflect.ParameterizedType p && p.getRawType() == jakarta.xml.bind.JAXBElement.class) {
            t = p.getActualTypeArguments()[0];
        }
        if (t instanceof java.lang.reflect.ParameterizedType p) {
            t = p.getRawType();
        }
        return t instanceof Class<?> c ? c : Object.class;
    }

    /**
     * Whether the encoder writes a value of this class: a simple type, a bound class, DOM, or what
     * only the value itself tells (xs:anyType's Object, mixed content's Serializable, a JAXBElement).
     */
    private static boolean writable(Class<?> c) {
        if (javax.xml.transform.Source.class.isAssignableFrom(c) || c.getName().equals("java.awt.Image")
                || c.getName().equals("jakarta.activation.DataHandler")) {
            return false; // binary content JAXB binds by itself (xmime), which has no text form here
        }
        return Adapters.isSimple(c) || JaxbProperties.isBound(c) || c.isInterface() || c == Object.class
                || java.lang.reflect.Modifier.isAbstract(c.getModifiers()) || c == jakarta.xml.bind.JAXBElement.class
                || c == ForeignReference.class;
    }

    private static ConfigException refused(Class<?> type, String why) {
        return new ConfigException(IngestSettings.RECORD_CLASS.key(), "model class " + type.getName() + " " + why
                + " (classes xjc or 'model compile' generate are bound this way)");
    }
}
