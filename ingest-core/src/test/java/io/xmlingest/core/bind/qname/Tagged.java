package io.xmlingest.core.bind.qname;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import javax.xml.namespace.QName;

/**
 * What xjc makes of
 * <pre>{@code
 * <xs:element name="tagged"><xs:complexType><xs:sequence>
 *   <xs:element name="kind" type="xs:QName"/></xs:sequence>
 *   <xs:attribute name="id" type="xs:string" use="required"/></xs:complexType></xs:element>
 * }</pre>
 * in the target namespace {@value #NS}, elements qualified (see {@code tagged.xsd}).
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", namespace = Tagged.NS, propOrder = {"kind"})
@XmlRootElement(name = "tagged", namespace = Tagged.NS)
public class Tagged {
    public static final String NS = "urn:xmlingest:test:tagged";

    @XmlElement(namespace = NS, required = true)
    public QName kind;
    @XmlAttribute(name = "id", required = true)
    public String id;
}
