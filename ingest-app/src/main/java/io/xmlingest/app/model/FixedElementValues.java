package io.xmlingest.app.model;

import com.sun.tools.xjc.model.CClassInfo;
import com.sun.tools.xjc.model.CElementInfo;
import com.sun.tools.xjc.model.CElementPropertyInfo;
import com.sun.tools.xjc.model.CPropertyInfo;
import com.sun.tools.xjc.model.CTypeRef;
import com.sun.tools.xjc.model.Model;
import com.sun.xml.xsom.XSComponent;
import com.sun.xml.xsom.XSElementDecl;
import com.sun.xml.xsom.XSModelGroup;
import com.sun.xml.xsom.XSModelGroupDecl;
import com.sun.xml.xsom.XSParticle;
import com.sun.xml.xsom.XmlString;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * An empty element takes its declaration's {@code fixed} value, as it takes a {@code default}
 * one. xjc passes only {@code default} on (its CTypeRef reads {@code XSElementDecl.getDefaultValue},
 * which is null for a fixed value), so JAXB bound {@code <fs/>} as "" and refused {@code <fi/>} of
 * an xs:int fixed at 7 as "'' is not an xs:int". Given the fixed value as the type reference's
 * default, xjc writes it where it writes a default ({@code @XmlElement} and {@code @XmlElementDecl}
 * defaultValue), and JAXB's runtime applies it. Attributes need nothing: xjc's getter of a fixed
 * attribute already returns the fixed value when the attribute is absent.
 */
final class FixedElementValues {
    private FixedElementValues() {
    }

    /** Runs on xjc's model, before any code exists, so every place xjc writes a default sees it. */
    static void apply(Model model) {
        for (CClassInfo c : model.beans().values()) {
            for (CPropertyInfo p : c.getProperties()) {
                if (p instanceof CElementPropertyInfo e) {
                    apply(e);
                }
            }
        }
        // The JAXBElement properties (a nillable optional element, a global element) read theirs from here.
        for (CElementInfo e : model.getAllElements()) {
            apply(e.getProperty());
        }
    }

    private static void apply(CElementPropertyInfo property) {
        Map<QName, XSElementDecl> declared = new HashMap<>();
        collect(property.getSchemaComponent(), declared);
        List<CTypeRef> types = property.getTypes();
        for (int i = 0; i < types.size(); i++) {
            CTypeRef ref = types.get(i);
            XSElementDecl decl = declared.get(ref.getTagName());
            // Only an element of a simple type: JAXB applies an element's default to a leaf value, not to a class.
            XmlString fixed = decl == null || !decl.getType().isSimpleType() ? null : decl.getFixedValue();
            if (fixed != null && ref.getDefaultValue() == null) {
                types.set(i, new CTypeRef(ref.getTarget(), ref.getTagName(), ref.getTypeName(), ref.isNillable(), fixed));
            }
        }
    }

    /** The element declarations a property's schema component holds (a choice's several), by name. */
    private static void collect(XSComponent source, Map<QName, XSElementDecl> into) {
        if (source instanceof XSParticle p) {
            collect(p.getTerm(), into);
        } else if (source instanceof XSElementDecl e) {
            into.putIfAbsent(new QName(e.getTargetNamespace(), e.getName()), e);
        } else if (source instanceof XSModelGroupDecl g) {
            collect(g.getModelGroup(), into);
        } else if (source instanceof XSModelGroup g) {
            for (XSParticle child : g.getChildren()) {
                collect(child, into);
            }
        }
    }
}
