package io.xmlingest.core.jaxb;

import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapters;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;

/**
 * The {@code @XmlJavaTypeAdapter} between a property's field and its XML, where the field holds a
 * type the encoder cannot write by itself ({@code Money}, a {@code Calendar} of an xjc
 * {@code javaType} customisation). Such a value was written as its {@code toString()}; it is now
 * handed back through its adapter first, as JAXB would to write it as XML. An adapter on a type the
 * encoder writes by itself (the strict lexical adapters on every {@code int} of a compiled model) is
 * not called: the value is already what the XML said.
 */
public final class Adapters {
    private Adapters() {
    }

    private static final ClassValue<XmlAdapter<?, ?>[]> ADAPTERS = new ClassValue<>() {
        @Override
        protected XmlAdapter<?, ?>[] computeValue(Class<?> type) {
            List<JaxbProperty> properties = JaxbProperties.of(type);
            XmlAdapter<?, ?>[] adapters = new XmlAdapter<?, ?>[properties.size()];
            for (int i = 0; i < adapters.length; i++) {
                Field f = properties.get(i).field();
                Class<? extends XmlAdapter> declared = declaredOn(f);
                adapters[i] = declared == null || writtenWithoutAdapter(ElementNames.itemClassOf(f)) ? null
                        : create(declared, f);
            }
            return adapters;
        }
    };

    /** Per property of {@code type} (in {@link JaxbProperties#of} order), its adapter, or null. */
    public static XmlAdapter<?, ?>[] of(Class<?> type) {
        return ADAPTERS.get(type);
    }

    /** The value as the adapter gives it for XML; a collection's items each. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object marshal(XmlAdapter<?, ?> adapter, Object value) {
        if (value instanceof Collection<?> items) {
            List<Object> marshalled = new ArrayList<>(items.size());
            for (Object item : items) {
                marshalled.add(marshal(adapter, item));
            }
            return marshalled;
        }
        try {
            // One instance serves every thread, where JAXB makes one per (un)marshaller: a user's adapter need not be
            // safe to share (a SimpleDateFormat in it wrote wrong dates under bind.threads).
            synchronized (adapter) {
                return ((XmlAdapter) adapter).marshal(value);
            }
        } catch (Exception e) {
            throw new IllegalStateException("the adapter " + adapter.getClass().getName() + " cannot write a "
                    + value.getClass().getName() + ": " + e, e);
        }
    }

    /**
     * The adapter JAXB uses for a field, where it looks: on the field, on the class of its items,
     * then on the package of the class declaring the field, for that class of item; null for none.
     */
    @SuppressWarnings("rawtypes")
    public static Class<? extends XmlAdapter> declaredOn(Field f) {
        XmlJavaTypeAdapter own = f.getAnnotation(XmlJavaTypeAdapter.class);
        if (own != null) {
            return own.value();
        }
        Class<?> item = ElementNames.itemClassOf(f);
        XmlJavaTypeAdapter onType = item.getAnnotation(XmlJavaTypeAdapter.class);
        if (onType != null) {
            return onType.value();
        }
        Package p = f.getDeclaringClass().getPackage();
        if (p == null) {
            return null;
        }
        List<XmlJavaTypeAdapter> onPackage = new ArrayList<>();
        XmlJavaTypeAdapters many = p.getAnnotation(XmlJavaTypeAdapters.class);
        if (many != null) {
            onPackage.addAll(List.of(many.value()));
        }
        XmlJavaTypeAdapter one = p.getAnnotation(XmlJavaTypeAdapter.class);
        if (one != null) {
            onPackage.add(one);
        }
        for (XmlJavaTypeAdapter a : onPackage) {
            if (a.type() == item) {
                return a.value();
            }
        }
        return null;
    }

    /**
     * What the encoder writes for one value of the field when it goes through an adapter (the
     * adapter's type for XML); null when the field's own values are written.
     */
    public static Type writtenTypeOf(Field f) {
        Class<? extends XmlAdapter> declared = declaredOn(f);
        return declared == null || writtenWithoutAdapter(ElementNames.itemClassOf(f)) ? null : valueTypeOf(declared);
    }

    /** The type an adapter turns a value into for XML (its first type argument), Object when it does not say. */
    @SuppressWarnings("rawtypes")
    public static Type valueTypeOf(Class<? extends XmlAdapter> adapter) {
        for (Class<?> c = adapter; c != null && c != Object.class; c = c.getSuperclass()) {
            if (c.getGenericSuperclass() instanceof ParameterizedType p && p.getRawType() == XmlAdapter.class) {
                return p.getActualTypeArguments()[0];
            }
        }
        return Object.class;
    }

    /**
     * Whether a value of this class is written by the encoder itself even where an adapter is declared: a
     * value already as the XML said it. Not a Date or Calendar, whose adapter says whether it is an
     * xs:date, an xs:time or an xs:dateTime (xjc's javaType customisation), which the value does not.
     */
    private static boolean writtenWithoutAdapter(Class<?> c) {
        return isSimple(c) && !java.util.Date.class.isAssignableFrom(c) && !java.util.Calendar.class.isAssignableFrom(c);
    }

    /**
     * Whether the encoder writes values of this class by itself, in their XML Schema form: text,
     * numbers, booleans, dates and times, durations, names, binary, enums, and the other simple
     * types JAXB binds with no adapter.
     */
    public static boolean isSimple(Class<?> c) {
        return c.isPrimitive() || c == String.class || c == Boolean.class || c == Integer.class || c == Long.class
                || c == Short.class || c == Byte.class || c == BigDecimal.class || c == BigInteger.class
                || c == Double.class || c == Float.class || c == Character.class || c.isEnum() || c == byte[].class
                || XMLGregorianCalendar.class.isAssignableFrom(c) || Duration.class.isAssignableFrom(c)
                || c == QName.class || java.util.Calendar.class.isAssignableFrom(c)
                || java.util.Date.class.isAssignableFrom(c) || c == java.net.URI.class || c == java.net.URL.class
                || c == java.io.File.class || c == java.util.UUID.class;
    }

    @SuppressWarnings("rawtypes")
    private static XmlAdapter<?, ?> create(Class<? extends XmlAdapter> type, Field f) {
        try {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException
                 | InvocationTargetException e) {
            throw new IllegalStateException("cannot make the adapter " + type.getName() + " of " + f + ": " + e, e);
        }
    }
}
