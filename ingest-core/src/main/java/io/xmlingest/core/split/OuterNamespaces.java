package io.xmlingest.core.split;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.xml.XMLConstants;
import javax.xml.namespace.NamespaceContext;

/**
 * The namespace bindings that the elements around a record declare. A record may use them without
 * declaring them itself, in its names and also in values (an {@code xsi:type}, an {@code xs:QName}).
 * A reader of a record answers {@code getProperty(PROPERTY)} with them: a schema validator learns
 * bindings only from the declarations it is shown, and the record shows none of these.
 */
public final class OuterNamespaces implements NamespaceContext {

    /** The reader property whose value is the record's {@code OuterNamespaces}. */
    public static final String PROPERTY = "io.xmlingest.outerNamespaces";

    static final OuterNamespaces NONE = new OuterNamespaces(Map.of());

    private final Map<String, String> bindings;

    private OuterNamespaces(Map<String, String> bindings) {
        this.bindings = bindings;
    }

    /**
     * @param declarations each enclosing element's declarations, outermost first, as prefix and URI
     *                     pairs ("" for the default namespace; a URI of "" undeclares it)
     */
    static OuterNamespaces of(List<String[]> declarations) {
        Map<String, String> bindings = new LinkedHashMap<>();
        for (String[] pairs : declarations) {
            for (int i = 0; i < pairs.length; i += 2) {
                bindings.remove(pairs[i]); // an inner declaration comes after the outer one it hides
                bindings.put(pairs[i], pairs[i + 1]);
            }
        }
        return bindings.isEmpty() ? NONE : new OuterNamespaces(Collections.unmodifiableMap(bindings));
    }

    /** Every binding in scope around the record, prefix to URI. */
    public Map<String, String> bindings() {
        return bindings;
    }

    @Override
    public String getNamespaceURI(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (XMLConstants.XML_NS_PREFIX.equals(prefix)) {
            return XMLConstants.XML_NS_URI;
        }
        if (XMLConstants.XMLNS_ATTRIBUTE.equals(prefix)) {
            return XMLConstants.XMLNS_ATTRIBUTE_NS_URI;
        }
        String uri = bindings.get(prefix);
        return uri != null ? uri : prefix.isEmpty() ? XMLConstants.NULL_NS_URI : null;
    }

    @Override
    public String getPrefix(String namespaceURI) {
        Iterator<String> all = getPrefixes(namespaceURI);
        return all.hasNext() ? all.next() : null;
    }

    @Override
    public Iterator<String> getPrefixes(String namespaceURI) {
        Objects.requireNonNull(namespaceURI, "namespaceURI");
        if (XMLConstants.XML_NS_URI.equals(namespaceURI)) {
            return List.of(XMLConstants.XML_NS_PREFIX).iterator();
        }
        return bindings.entrySet().stream().filter(b -> b.getValue().equals(namespaceURI))
                .map(Map.Entry::getKey).iterator();
    }
}
