package io.xmlingest.core.pipeline.shop;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;

/** The other record type of the fan-out tests' shop files. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "invoice", namespace = ShopOrder.NS, propOrder = {"order", "amount"})
public class ShopInvoice {
    @XmlAttribute(name = "no", required = true)
    public String no;
    @XmlElement(namespace = ShopOrder.NS, required = true)
    public String order;
    @XmlElement(namespace = ShopOrder.NS, required = true)
    public BigDecimal amount;
}
