package io.xmlingest.core.jaxb;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementDecl;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlEnumValue;
import jakarta.xml.bind.annotation.XmlRegistry;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;

/**
 * Shaped the way xjc writes classes (field access, list getters without setters, a default kept in
 * the getter, JAXBElement for an optional nillable element, an anonymous type as a nested class),
 * so tests see what a user's generated model looks like without running xjc.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "", propOrder = {"placed", "status", "total", "line", "unitPrice", "giftWrap", "note", "shipTo"})
@XmlRootElement(name = "order")
public class XjcStyleOrder {

    @XmlElement(required = true)
    @XmlSchemaType(name = "dateTime")
    protected XMLGregorianCalendar placed;
    @XmlElement(required = true)
    @XmlSchemaType(name = "string")
    protected Status status;
    @XmlElement(required = true, nillable = true)
    protected BigDecimal total;
    protected List<XjcStyleOrder.Line> line;
    @XmlElementRef(name = "unit-price", type = JAXBElement.class, required = false)
    protected JAXBElement<BigDecimal> unitPrice;
    protected Boolean giftWrap;
    @XmlElementRef(name = "note", type = JAXBElement.class, required = false)
    protected JAXBElement<String> note;
    @XmlElementRef(name = "shipTo", type = JAXBElement.class, required = false)
    protected JAXBElement<Address> shipTo;
    @XmlAttribute(name = "id", required = true)
    protected String id;
    @XmlAttribute(name = "priority")
    protected Boolean priority;
    @XmlAttribute(name = "channel")
    protected Status channel;
    @XmlAttribute(name = "batch")
    @XmlSchemaType(name = "positiveInteger")
    protected BigInteger batch;

    public List<XjcStyleOrder.Line> getLine() {
        if (line == null) {
            line = new ArrayList<>();
        }
        return this.line;
    }

    public Boolean isGiftWrap() {
        return giftWrap;
    }

    public boolean isPriority() {
        if (priority == null) {
            return false;
        }
        return priority;
    }

    public Status getChannel() {
        if (channel == null) {
            return Status.PLACED;
        }
        return channel;
    }

    public BigInteger getBatch() {
        return batch;
    }

    public String getId() {
        return id;
    }

    public JAXBElement<String> getNote() {
        return note;
    }

    @XmlType(name = "Status")
    @XmlEnum
    public enum Status {
        @XmlEnumValue("placed") PLACED,
        @XmlEnumValue("on-hold") ON_HOLD
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "", propOrder = {"quantity", "price"})
    public static class Line {
        @XmlElement(required = true)
        @XmlSchemaType(name = "positiveInteger")
        protected BigInteger quantity;
        @XmlElement(required = true)
        protected Money price;
        @XmlAttribute(name = "sku", required = true)
        protected String sku;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "Money", propOrder = {"value"})
    public static class Money {
        @XmlValue
        protected BigDecimal value;
        @XmlAttribute(name = "currency", required = true)
        protected String currency;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlType(name = "Address", propOrder = {"city"})
    public static class Address {
        @XmlElement(required = true)
        protected String city;
    }

    @XmlRegistry
    public static class ObjectFactory {
        @XmlElementDecl(name = "unit-price", scope = XjcStyleOrder.class)
        public JAXBElement<BigDecimal> createUnitPrice(BigDecimal value) {
            return new JAXBElement<>(new QName("", "unit-price"), BigDecimal.class, XjcStyleOrder.class, value);
        }

        @XmlElementDecl(name = "note", scope = XjcStyleOrder.class)
        public JAXBElement<String> createNote(String value) {
            return new JAXBElement<>(new QName("", "note"), String.class, XjcStyleOrder.class, value);
        }

        @XmlElementDecl(name = "shipTo", scope = XjcStyleOrder.class)
        public JAXBElement<Address> createShipTo(Address value) {
            return new JAXBElement<>(new QName("", "shipTo"), Address.class, XjcStyleOrder.class, value);
        }
    }
}
