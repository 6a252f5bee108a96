package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;

/** Simple content with attributes: the text is written as "value". */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Shelf", namespace = Kitchen.NS)
public class Shelf {
    @XmlAttribute(name = "unit", required = true)
    public Grade unit;
    @XmlAttribute(name = "height")
    public Integer height;
    @XmlValue
    public String value;
}
