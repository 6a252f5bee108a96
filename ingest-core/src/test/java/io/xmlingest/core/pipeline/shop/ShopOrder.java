package io.xmlingest.core.pipeline.shop;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

/** A second record type for fan-out tests, unlike the sample persons. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "order", namespace = ShopOrder.NS, propOrder = {"customer", "quantity", "total"})
public class ShopOrder {
    public static final String NS = "urn:test:shop";

    @XmlAttribute(name = "id", required = true)
    public String id;
    @XmlElement(namespace = NS, required = true)
    public String customer;
    @XmlElement(namespace = NS)
    public Integer quantity;
    @XmlElement(namespace = NS)
    public BigDecimal total;
}
