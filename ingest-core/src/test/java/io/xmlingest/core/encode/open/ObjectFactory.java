package io.xmlingest.core.encode.open;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlElementDecl;
import jakarta.xml.bind.annotation.XmlRegistry;
import javax.xml.namespace.QName;

/** The element declarations xjc writes for {@link Contact}: the choice's alternatives, mixed content's and the substitution group's elements. */
@XmlRegistry
public class ObjectFactory {
    static final String NS = Contact.NS;

    public Contact createContact() {
        return new Contact();
    }

    public Contact.Note createContactNote() {
        return new Contact.Note();
    }

    @XmlElementDecl(namespace = NS, name = "channel")
    public JAXBElement<String> createChannel(String value) {
        return new JAXBElement<>(new QName(NS, "channel"), String.class, null, value);
    }

    @XmlElementDecl(namespace = NS, name = "fax", substitutionHeadNamespace = NS, substitutionHeadName = "channel")
    public JAXBElement<String> createFax(String value) {
        return new JAXBElement<>(new QName(NS, "fax"), String.class, null, value);
    }

    @XmlElementDecl(namespace = NS, name = "pager", substitutionHeadNamespace = NS, substitutionHeadName = "fax")
    public JAXBElement<String> createPager(String value) {
        return new JAXBElement<>(new QName(NS, "pager"), String.class, null, value);
    }

    @XmlElementDecl(namespace = NS, name = "email", scope = Contact.class)
    public JAXBElement<String> createContactEmail(String value) {
        return new JAXBElement<>(new QName(NS, "email"), String.class, Contact.class, value);
    }

    @XmlElementDecl(namespace = NS, name = "phone", scope = Contact.class)
    public JAXBElement<String> createContactPhone(String value) {
        return new JAXBElement<>(new QName(NS, "phone"), String.class, Contact.class, value);
    }

    @XmlElementDecl(namespace = NS, name = "b", scope = Contact.Note.class)
    public JAXBElement<String> createContactNoteB(String value) {
        return new JAXBElement<>(new QName(NS, "b"), String.class, Contact.Note.class, value);
    }
}
