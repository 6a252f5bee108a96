package io.xmlingest.core.bind.adapted;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;
import java.math.BigDecimal;

/** The XML form of {@link Money}: what JAXB makes before the adapter turns it into one. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "money", namespace = Order.NS)
public class MoneyXml {
    @XmlAttribute
    public String currency;
    @XmlValue
    public BigDecimal amount;
}
