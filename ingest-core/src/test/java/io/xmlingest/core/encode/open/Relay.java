package io.xmlingest.core.encode.open;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * xjc's class for an element that names a substitution group's head and, again, two of its members
 * (with {@link Contact}'s global elements: fax and pager stand for channel, pager for fax):
 * <pre>{@code
 * <xs:element name="relay"><xs:complexType><xs:sequence>
 *   <xs:element ref="t:channel"/>
 *   <xs:element ref="t:fax" minOccurs="0"/>
 *   <xs:element ref="t:pager" minOccurs="0"/>
 * </xs:sequence></xs:complexType></xs:element>
 * }</pre>
 * A {@code <fax>} is valid as the channel or as the fax; JAXB cannot tell which was meant.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"channel", "fax", "pager"})
@XmlRootElement(name = "relay")
public class Relay {

    @XmlElementRef(name = "channel", namespace = Contact.NS, type = JAXBElement.class)
    protected JAXBElement<String> channel;
    @XmlElementRef(name = "fax", namespace = Contact.NS, type = JAXBElement.class, required = false)
    protected JAXBElement<String> fax;
    @XmlElement(namespace = Contact.NS)
    protected String pager;
}
