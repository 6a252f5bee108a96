package io.xmlingest.core.bind.shapes;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

/** An abstract complex type, as xjc makes of {@code <xs:complexType name="Shape" abstract="true">}. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Shape", namespace = Drawing.NS)
@XmlSeeAlso({Circle.class})
public abstract class Shape {
}
