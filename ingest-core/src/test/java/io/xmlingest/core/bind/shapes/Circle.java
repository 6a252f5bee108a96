package io.xmlingest.core.bind.shapes;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Circle", namespace = Drawing.NS)
public class Circle extends Shape {
    @XmlElement(namespace = Drawing.NS, required = true)
    public BigDecimal radius;
}
