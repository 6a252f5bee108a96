package io.xmlingest.core.encode.open;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.List;

/**
 * xjc's class for {@link Relay}'s places the other way round, the member's own place first and
 * repeated (with {@link Contact}'s global elements: fax and pager stand for channel, pager for fax):
 * <pre>{@code
 * <xs:element name="forward"><xs:complexType><xs:sequence>
 *   <xs:element ref="t:fax" maxOccurs="unbounded"/>
 *   <xs:element ref="t:channel"/>
 * </xs:sequence></xs:complexType></xs:element>
 * }</pre>
 * JAXB puts every {@code <fax>} and {@code <pager>} in the list, the first place the class declares.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"fax", "channel"})
@XmlRootElement(name = "forward")
public class Forward {

    @XmlElementRef(name = "fax", namespace = Contact.NS, type = JAXBElement.class)
    protected List<JAXBElement<String>> fax;
    @XmlElementRef(name = "channel", namespace = Contact.NS, type = JAXBElement.class)
    protected JAXBElement<String> channel;
}
