package io.xmlingest.app.model;

import com.sun.tools.xjc.model.CClassInfo;
import com.sun.tools.xjc.model.CElementPropertyInfo;
import com.sun.tools.xjc.model.CPropertyInfo;
import com.sun.tools.xjc.model.CTypeRef;
import com.sun.tools.xjc.model.Model;
import com.sun.xml.xsom.XSComponent;
import com.sun.xml.xsom.XSElementDecl;
import com.sun.xml.xsom.XSParticle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * References to nillable global elements ({@code <xs:element ref="Memo" minOccurs="0"/>} where
 * {@code Memo} is {@code nillable="true"}), which xjc binds to a plain field, unlike a local nillable
 * element: a nil one and a missing one are then both null, and a nil element was published as if it were
 * not there, its attributes refused as lost. Marked substitutable (xjc's own customization), such a
 * reference binds to a {@code JAXBElement}, which keeps the nil mark and the attributes, as a local
 * nillable element's does.
 */
final class NillableReferences {

    private static final String JAXB = "https://jakarta.ee/xml/ns/jaxb";
    private static final String XJC = "http://java.sun.com/xml/ns/jaxb/xjc";

    private NillableReferences() {
    }

    /**
     * The nillable global elements that some class of the model holds in a plain field, once. A repeated reference
     * keeps a nil item as null already (its place in the list), and marking the element would change every list of
     * it to one of JAXBElements: an element referenced anywhere as a list is left as it is.
     */
    static List<QName> in(Model model) {
        Set<QName> found = new LinkedHashSet<>();
        Set<QName> repeated = new java.util.HashSet<>();
        for (CClassInfo c : model.beans().values()) {
            for (CPropertyInfo p : c.getProperties()) {
                if (!(p instanceof CElementPropertyInfo e)) {
                    continue;
                }
                XSElementDecl held = declarationOf(e.getSchemaComponent());
                for (CTypeRef t : e.getTypes()) {
                    QName tag = t.getTagName();
                    XSElementDecl global = model.schemaComponent.getElementDecl(tag.getNamespaceURI(), tag.getLocalPart());
                    // By the declaration the property came from where it tells; else by name (a local element of a
                    // global one's name then marks the global one, which changes nothing for the local one).
                    boolean reference = held != null ? held == global : t.isNillable();
                    if (global != null && global.isNillable() && reference) {
                        (e.isCollection() ? repeated : found).add(tag);
                    }
                }
            }
        }
        found.removeAll(repeated);
        return new ArrayList<>(found);
    }

    /** The element declaration a property was made from, when it was made from one particle of one element. */
    private static XSElementDecl declarationOf(XSComponent component) {
        if (component instanceof XSParticle particle && particle.getTerm().isElementDecl()) {
            return particle.getTerm().asElementDecl();
        }
        return component instanceof XSElementDecl d ? d : null;
    }

    /** An external binding document marking each element substitutable, by schema component designator. */
    static Element bindings(List<QName> elements) {
        Document doc;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            doc = factory.newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
        Element root = doc.createElementNS(JAXB, "jaxb:bindings");
        root.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:xjc", XJC);
        root.setAttribute("version", "3.0");
        root.setAttributeNS(JAXB, "jaxb:extensionBindingPrefixes", "xjc");
        doc.appendChild(root);
        int n = 0;
        for (QName element : elements) {
            Element binding = doc.createElementNS(JAXB, "jaxb:bindings");
            String name = element.getLocalPart();
            if (!element.getNamespaceURI().isEmpty()) {
                String prefix = "n" + n++;
                binding.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:" + prefix, element.getNamespaceURI());
                name = prefix + ":" + name;
            }
            binding.setAttribute("scd", "/element::" + name);
            binding.appendChild(doc.createElementNS(XJC, "xjc:substitutable"));
            root.appendChild(binding);
        }
        return root;
    }
}
