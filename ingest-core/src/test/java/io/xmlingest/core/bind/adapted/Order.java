package io.xmlingest.core.bind.adapted;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;
import java.util.List;

/**
 * A hand-written model, as a user may bring one: a field held through an adapter (JAXB makes a
 * {@link MoneyXml}, not the field's {@link Money}), a choice of two alternatives, one of the
 * property's own type ({@code @XmlElement}'s default) and one of a type derived from it, and a
 * required nillable element.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "order", namespace = Order.NS, propOrder = {"price", "items", "note"})
@XmlRootElement(name = "order", namespace = Order.NS)
public class Order {
    public static final String NS = "urn:xmlingest:test:adapted";

    @XmlAttribute
    public String id;
    @XmlElement(namespace = NS)
    @XmlJavaTypeAdapter(MoneyAdapter.class)
    public Money price;
    @XmlElements({@XmlElement(name = "item", namespace = NS), @XmlElement(name = "gift", namespace = NS, type = Gift.class)})
    public List<Item> items;
    @XmlElement(namespace = NS, required = true, nillable = true)
    public Item note;
}
