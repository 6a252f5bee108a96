package io.xmlingest.core.bind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;

/**
 * One record read without a model: names in document order, each with a value that is text
 * ({@link String}), a nested {@code XmlTree}, a {@link List} of those (an element that repeats),
 * or null (an element marked {@code xsi:nil}). Immutable once built.
 */
public final class XmlTree {

    private final String[] names;
    private final Object[] values;
    /** Whether the last entry is the element's own text ({@link #TEXT}), which is no attribute or child. */
    private final boolean hasText;

    XmlTree(List<String> names, List<Object> values, boolean hasText) {
        this.names = names.toArray(String[]::new);
        this.values = values.toArray();
        this.hasText = hasText;
    }

    public int size() {
        return names.length;
    }

    public String name(int i) {
        return names[i];
    }

    /** A String, an XmlTree, an unmodifiable List of them, or null. */
    public Object value(int i) {
        return values[i];
    }

    /** The value under {@code name}, or null when there is none. */
    public Object get(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    public List<String> names() {
        return List.of(names);
    }

    /**
     * The text of the attribute or child element {@code localName}, for a message key: the
     * element when both exist, as in the JSON; failing those, the one attribute or element of
     * that local name in another namespace. Never the element's own text. Null when there is no
     * such value (or it is nil).
     *
     * @throws IllegalArgumentException when the value is structured or repeated, or the name is
     *                                  in several namespaces, and so no key
     */
    public String keyOf(String localName) {
        int at = indexOf(localName);
        if (at < 0) {
            at = indexOf("@" + localName);
        }
        if (at < 0) {
            at = inOtherNamespace(localName);
        }
        Object v = at < 0 ? null : values[at];
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw new IllegalArgumentException(localName + " is " + (v instanceof List ? "repeated" : "a structure")
                + ", not a single value");
    }

    private int indexOf(String name) {
        for (int i = 0, n = hasText ? names.length - 1 : names.length; i < n; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private int inOtherNamespace(String localName) {
        String suffix = "}" + localName;
        int found = -1;
        for (int i = 0, n = hasText ? names.length - 1 : names.length; i < n; i++) {
            if (names[i].endsWith(suffix) && names[i].startsWith("{")) {
                if (found >= 0) {
                    throw new IllegalArgumentException(localName + " is in more than one namespace ("
                            + names[found] + ", " + names[i] + "), not a single value");
                }
                found = i;
            }
        }
        return found;
    }

    /** Builds a tree as the binder reads it. */
    static final class Builder {
        private static final int INDEX_FROM = 16;

        private final List<String> attributeNames = new ArrayList<>(4);
        private final List<String> attributeValues = new ArrayList<>(4);
        private final List<String> childNames = new ArrayList<>(8);
        private final List<Object> childValues = new ArrayList<>(8);

        void attribute(String name, String value) {
            attributeNames.add(name);
            attributeValues.add(value);
        }

        /**
         * Where each child name is, once there are more than a few: a record may have hundreds of
         * thousands of distinct children within the size limit, and a scan per child would make
         * such a record take minutes to read.
         */
        private HashMap<String, Integer> childIndex;

        void child(String name, Object value) {
            int at = indexOfChild(name);
            if (at < 0) {
                if (childIndex != null) {
                    childIndex.put(name, childNames.size());
                }
                childNames.add(name);
                childValues.add(value);
            } else if (childValues.get(at) instanceof Repeated repeated) {
                repeated.add(value);
            } else {
                Repeated repeated = new Repeated();
                repeated.add(childValues.get(at));
                repeated.add(value);
                childValues.set(at, repeated);
            }
        }

        private int indexOfChild(String name) {
            if (childIndex == null) {
                int at = childNames.indexOf(name);
                if (at >= 0 || childNames.size() < INDEX_FROM) {
                    return at;
                }
                childIndex = new HashMap<>(childNames.size() * 2);
                for (int i = 0; i < childNames.size(); i++) {
                    childIndex.put(childNames.get(i), i);
                }
                return -1;
            }
            Integer at = childIndex.get(name);
            return at == null ? -1 : at;
        }

        boolean hasChildren() {
            return !childNames.isEmpty();
        }

        boolean isEmpty() {
            return attributeNames.isEmpty() && childNames.isEmpty();
        }

        /** @param text the element's own text, or null when it has none worth keeping */
        /** The tree of a nil element that has attributes: its text is null, not absent. */
        XmlTree buildNil() {
            return build(null, true);
        }

        XmlTree build(String text) {
            return build(text, text != null);
        }

        private XmlTree build(String text, boolean withText) {
            List<String> names = new ArrayList<>(attributeNames.size() + childNames.size() + 1);
            List<Object> values = new ArrayList<>(names.size());
            for (int i = 0; i < attributeNames.size(); i++) {
                String name = attributeNames.get(i);
                names.add(indexOfChild(name) >= 0 ? "@" + name : name);
                values.add(attributeValues.get(i));
            }
            for (int i = 0; i < childNames.size(); i++) {
                names.add(childNames.get(i));
                Object v = childValues.get(i);
                values.add(v instanceof Repeated r ? Collections.unmodifiableList(r) : v);
            }
            if (withText) {
                boolean taken = indexOfChild(TEXT) >= 0 || attributeNames.contains(TEXT);
                names.add(taken ? "#" + TEXT : TEXT);
                values.add(text);
            }
            return new XmlTree(names, values, withText);
        }
    }

    /** The property that holds an element's own text next to its attributes or children. */
    public static final String TEXT = "value";

    /** A list made by repetition, told apart from nothing else: values are never lists themselves. */
    private static final class Repeated extends ArrayList<Object> {
    }
}
