package io.xmlingest.core.encode.open;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.List;

/**
 * xjc's class for an element with a lax wildcard: elements the context knows bind to their
 * classes, others stay DOM.
 * <pre>{@code
 * <xs:element name="envelope"><xs:complexType><xs:sequence><xs:element name="from" type="xs:string"/>
 *   <xs:any processContents="lax" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
 * }</pre>
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"from", "any"})
@XmlRootElement(name = "envelope")
public class Envelope {
    @XmlElement(required = true)
    protected String from;
    @XmlAnyElement(lax = true)
    protected List<Object> any;

    public List<Object> any() {
        return any;
    }
}
