package io.xmlingest.core.pipeline.deep;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAnyElement;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.List;

/**
 * xjc's shape for a recursive type with a wildcard:
 * <pre>{@code
 * <xs:element name="folder" type="f:Folder"/>
 * <xs:complexType name="Folder"><xs:sequence>
 *   <xs:element name="folder" type="f:Folder" minOccurs="0" maxOccurs="unbounded"/>
 *   <xs:any processContents="skip" minOccurs="0" maxOccurs="unbounded"/>
 * </xs:sequence><xs:attribute name="name" type="xs:string"/></xs:complexType>
 * }</pre>
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Folder", propOrder = {"folder", "any"})
@XmlRootElement(name = "folder")
public class Folder {
    @XmlAttribute
    protected String name;
    protected List<Folder> folder;
    @XmlAnyElement
    protected List<org.w3c.dom.Element> any;
}
