package io.xmlingest.core.bind.shapes;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import java.util.List;

@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", namespace = Drawing.NS)
@XmlRootElement(name = "drawing", namespace = Drawing.NS)
public class Drawing {
    public static final String NS = "urn:xmlingest:test:shapes";

    @XmlElement(namespace = NS)
    public List<Shape> shape;
}
