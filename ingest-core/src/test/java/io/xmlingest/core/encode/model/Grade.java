package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlEnumValue;
import jakarta.xml.bind.annotation.XmlType;

@XmlType(name = "Grade", namespace = Kitchen.NS)
@XmlEnum
public enum Grade {
    @XmlEnumValue("top-notch") TOP,
    @XmlEnumValue("fine") FINE,
    PLAIN
}
