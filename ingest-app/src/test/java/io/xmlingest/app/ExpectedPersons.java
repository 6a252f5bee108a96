package io.xmlingest.app;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The expected message values, read from the source XML with the JDK's DOM parser: a parse that
 * shares nothing with the pipeline (no Woodstox, no JAXB, no xmlingest code), typed the way the
 * message format documents. Test files are small enough for a DOM.
 */
public final class ExpectedPersons {
    private static final String NS = "urn:xmlingest:sample:persons";

    private ExpectedPersons() {
    }

    public static List<Map<String, Object>> parse(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(file.toFile());
        NodeList persons = doc.getElementsByTagNameNS(NS, "person");
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < persons.getLength(); i++) {
            Element p = (Element) persons.item(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", Long.parseLong(p.getAttribute("id")));
            m.put("firstName", text(p, "firstName"));
            m.put("lastName", text(p, "lastName"));
            m.put("email", text(p, "email"));
            m.put("birthDate", text(p, "birthDate"));
            m.put("active", Boolean.parseBoolean(text(p, "active")));
            m.put("salary", new BigDecimal(text(p, "salary")));
            List<Map<String, Object>> phones = new ArrayList<>();
            for (Element ph : children(p, "phone")) {
                Map<String, Object> phone = new LinkedHashMap<>();
                phone.put("type", ph.getAttribute("type"));
                phone.put("value", ph.getTextContent());
                phones.add(phone);
            }
            m.put("phone", phones);
            Element a = children(p, "address").get(0);
            Map<String, Object> address = new LinkedHashMap<>();
            for (String field : List.of("street", "city", "postalCode", "country")) {
                address.put(field, text(a, field));
            }
            m.put("address", address);
            out.add(m);
        }
        return out;
    }

    private static String text(Element parent, String name) {
        return children(parent, name).get(0).getTextContent();
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && NS.equals(e.getNamespaceURI()) && name.equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }
}
