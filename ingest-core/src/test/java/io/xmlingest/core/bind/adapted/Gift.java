package io.xmlingest.core.bind.adapted;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** An item with a wrapping: the choice's other alternative, of a type derived from the property's own. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "gift", namespace = Order.NS)
public class Gift extends Item {
    @XmlElement(namespace = Order.NS)
    public String wrapping;
}
