package io.xmlingest.core.encode.open;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyAttribute;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlElementRefs;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlMixed;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * xjc's classes for
 * <pre>{@code
 * <xs:element name="channel" type="xs:string"/>
 * <xs:element name="fax" type="xs:string" substitutionGroup="t:channel"/>
 * <xs:element name="pager" type="xs:string" substitutionGroup="t:fax"/>
 * <xs:element name="contact"><xs:complexType><xs:sequence>
 *   <xs:choice maxOccurs="unbounded">
 *     <xs:element name="email" type="xs:string"/><xs:element name="phone" type="xs:string"/></xs:choice>
 *   <xs:choice minOccurs="0" maxOccurs="unbounded">
 *     <xs:element name="weight" type="xs:decimal"/><xs:element name="count" type="xs:int" nillable="true"/></xs:choice>
 *   <xs:element name="note" minOccurs="0"><xs:complexType mixed="true"><xs:sequence>
 *     <xs:element name="b" type="xs:string" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
 *   <xs:element ref="t:channel" minOccurs="0"/>
 *   <xs:element name="anything" type="xs:anyType" minOccurs="0"/>
 *   <xs:any namespace="##other" processContents="skip" minOccurs="0" maxOccurs="unbounded"/>
 * </xs:sequence><xs:attribute name="id" type="xs:string" use="required"/>
 * <xs:anyAttribute namespace="##other" processContents="skip"/></xs:complexType></xs:element>
 * }</pre>
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"emailOrPhone", "weightOrCount", "note", "channel", "anything", "any"})
@XmlRootElement(name = "contact")
public class Contact {
    public static final String NS = "urn:xmlingest:test:contact";

    @XmlElementRefs({
        @XmlElementRef(name = "email", namespace = NS, type = JAXBElement.class),
        @XmlElementRef(name = "phone", namespace = NS, type = JAXBElement.class)
    })
    protected List<JAXBElement<String>> emailOrPhone;
    @XmlElements({
        @XmlElement(name = "weight", type = BigDecimal.class),
        @XmlElement(name = "count", type = Integer.class, nillable = true)
    })
    protected List<Comparable> weightOrCount;
    protected Contact.Note note;
    @XmlElementRef(name = "channel", namespace = NS, type = JAXBElement.class, required = false)
    protected JAXBElement<String> channel;
    protected Object anything;
    @XmlAnyElement
    protected List<org.w3c.dom.Element> any;
    @XmlAttribute(name = "id", required = true)
    protected String id;
    @XmlAnyAttribute
    private Map<QName, String> otherAttributes = new HashMap<>();

    public List<JAXBElement<String>> emailOrPhone() {
        return emailOrPhone;
    }

    public List<Comparable> weightOrCount() {
        return weightOrCount;
    }

    public JAXBElement<String> channel() {
        return channel;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "", propOrder = {"content"})
    public static class Note {
        @XmlElementRef(name = "b", namespace = NS, type = JAXBElement.class, required = false)
        @XmlMixed
        protected List<Serializable> content;
    }
}
