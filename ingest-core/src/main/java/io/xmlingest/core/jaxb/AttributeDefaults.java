package io.xmlingest.core.jaxb;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Finds an attribute's schema default. xjc leaves the field null when the attribute is absent and
 * returns the default from the getter ({@code if (priority == null) return false;}), so reading
 * fields alone would drop a value the schema says the record has. The getter is asked once, on a
 * fresh instance, at introspection; records are then read from fields only.
 */
final class AttributeDefaults {
    private AttributeDefaults() {
    }

    /** The value the getter of {@code field} gives while the field is null, or null when there is none. */
    static Object of(Class<?> type, Field field) {
        if (Modifier.isAbstract(type.getModifiers()) || type.isInterface()) {
            return null;
        }
        Method getter = getter(type, field);
        if (getter == null) {
            return null;
        }
        try {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            Object fresh = constructor.newInstance();
            if (field.get(fresh) != null) {
                return null;
            }
            getter.setAccessible(true);
            Object value = getter.invoke(fresh);
            // xjc's getter of a list makes an empty one: that is no default, and an absent list attribute is left out.
            return value instanceof java.util.Collection<?> c && c.isEmpty() ? null : value;
        } catch (ReflectiveOperationException | RuntimeException e) {
            // A class without a usable no-argument constructor or getter is read from its fields as before.
            return null;
        }
    }

    private static Method getter(Class<?> type, Field field) {
        String name = field.getName();
        String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        for (String prefix : new String[] {"get", "is"}) {
            try {
                Method m = type.getMethod(prefix + suffix);
                if (m.getParameterCount() == 0 && m.getReturnType() != void.class) {
                    return m;
                }
            } catch (NoSuchMethodException e) {
                // try the next spelling
            }
        }
        return null;
    }
}
