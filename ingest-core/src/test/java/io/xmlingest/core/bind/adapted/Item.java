package io.xmlingest.core.bind.adapted;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "item", namespace = Order.NS)
public class Item {
    @XmlElement(namespace = Order.NS)
    public String name;
    @XmlAttribute
    public String lang;
}
