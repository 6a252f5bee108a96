package io.xmlingest.core.split;

import java.util.List;
import javax.xml.namespace.QName;

/**
 * The element names that start a record. With one name, the common case, a match is two string
 * comparisons; with several, a file fans out into record types in one pass.
 */
public final class RecordElements {

    private final List<QName> names;
    private final String[] localNames;
    private final String[] namespaces;

    private RecordElements(List<QName> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no record element");
        }
        this.names = List.copyOf(names);
        this.localNames = names.stream().map(QName::getLocalPart).toArray(String[]::new);
        this.namespaces = names.stream().map(QName::getNamespaceURI).toArray(String[]::new);
    }

    public static RecordElements of(List<QName> names) {
        return new RecordElements(names);
    }

    public static RecordElements of(QName name) {
        return new RecordElements(List.of(name));
    }

    public List<QName> names() {
        return names;
    }

    /** The position of the matching name in {@link #names()}, or -1. */
    public int indexOf(String namespace, String localName) {
        String ns = namespace == null ? "" : namespace;
        for (int i = 0; i < localNames.length; i++) {
            if (localNames[i].equals(localName) && namespaces[i].equals(ns)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether some record element has this local name, in whatever namespace. */
    public boolean hasLocalName(String localName) {
        for (String l : localNames) {
            if (l.equals(localName)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a record element's local name is this one but for upper and lower case ({@code Payment}, {@code payment}). */
    public boolean hasLocalNameButForCase(String localName) {
        for (String l : localNames) {
            if (!l.equals(localName) && l.equalsIgnoreCase(localName)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return names.size() == 1 ? names.get(0).toString() : names.toString();
    }
}
