package io.xmlingest.core.split;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import java.io.ByteArrayInputStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLResolver;
import javax.xml.stream.XMLStreamException;

/**
 * Builds Woodstox input factories that never open anything a document names: DTDs are not
 * processed, external entities are off, and every resolver refuses. Woodstox's defaults allow
 * all of these, which is unsafe for files that come from outside.
 */
public final class HardenedXmlInput {
    private HardenedXmlInput() {
    }

    private static final XMLResolver REFUSE = (publicId, systemId, baseUri, namespace) -> {
        throw new XMLStreamException("refused to resolve external resource '" + systemId
                + "': xmlingest never opens files or connections named by a document");
    };

    // Woodstox passes the entity's name as the last argument when it meets an undeclared entity.
    private static XMLResolver undeclared(String why) {
        return (publicId, systemId, baseUri, entityName) -> {
            throw new XMLStreamException("undeclared entity reference &" + entityName + "; (" + why + ")");
        };
    }

    private static final XMLResolver UNDECLARED = undeclared("DTDs are not processed: only XML's predefined "
            + "entities and character references are allowed; xml.doctype=internal expands entities the internal "
            + "subset declares");

    // Under the internal policy the DTD is processed, so the entity is simply not in the internal subset.
    private static final XMLResolver UNDECLARED_INTERNALLY = undeclared("the internal subset does not declare it, "
            + "and an external DTD is never read");

    /** Under the internal policy the external DTD subset reads as empty: declared, never fetched. */
    private static final XMLResolver EMPTY_EXTERNAL_SUBSET =
            (publicId, systemId, baseUri, namespace) -> new ByteArrayInputStream(new byte[0]);

    public static WstxInputFactory factory(XmlLimits limits) {
        WstxInputFactory f = new WstxInputFactory();
        boolean internal = limits.doctype() == DoctypePolicy.INTERNAL;
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, internal);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setXMLResolver(REFUSE);
        f.setProperty(WstxInputProperties.P_DTD_RESOLVER, internal ? EMPTY_EXTERNAL_SUBSET : REFUSE);
        f.setProperty(WstxInputProperties.P_MAX_ENTITY_COUNT, limits.maxEntityExpansions());
        f.setProperty(WstxInputProperties.P_MAX_ENTITY_DEPTH, limits.maxEntityDepth());
        f.setProperty(WstxInputProperties.P_ENTITY_RESOLVER, REFUSE);
        f.setProperty(WstxInputProperties.P_UNDECLARED_ENTITY_RESOLVER, internal ? UNDECLARED_INTERNALLY : UNDECLARED);
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, limits.maxDepth());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTES_PER_ELEMENT, limits.maxAttributes());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, (int) Math.min(Integer.MAX_VALUE, limits.maxAttributeSize()));
        f.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, (int) Math.min(Integer.MAX_VALUE, limits.maxTextSize()));
        return f;
    }
}
