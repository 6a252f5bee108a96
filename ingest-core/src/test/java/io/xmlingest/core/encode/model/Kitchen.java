package io.xmlingest.core.encode.model;

import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementRef;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlSchemaType;
import jakarta.xml.bind.annotation.XmlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import javax.xml.datatype.Duration;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;

/**
 * A record model, written as xjc would, with a property for every branch of JsonRecordEncoder, so
 * the schema test covers each of them.
 */
@XmlRootElement(name = "kitchen", namespace = Kitchen.NS)
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Kitchen", namespace = Kitchen.NS)
public class Kitchen {
    public static final String NS = "urn:test:kitchen";

    @XmlAttribute(name = "id", required = true)
    public long id;
    @XmlAttribute(name = "grade")
    public Grade grade;
    @XmlAttribute(name = "code")
    public QName code;

    @XmlElement(namespace = NS, required = true)
    public String name;
    @XmlElement(namespace = NS)
    public Boolean open;
    @XmlElement(namespace = NS)
    public Integer rooms;
    @XmlElement(namespace = NS)
    public Short floors;
    @XmlElement(namespace = NS)
    public Byte level;
    @XmlElement(namespace = NS)
    public BigInteger visitors;
    @XmlElement(namespace = NS)
    public BigDecimal price;
    @XmlElement(namespace = NS)
    public Double ratio;
    @XmlElement(namespace = NS)
    public Float weight;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "date")
    public XMLGregorianCalendar built;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "dateTime")
    public XMLGregorianCalendar inspected;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "time")
    public XMLGregorianCalendar opens;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "gYear")
    public XMLGregorianCalendar season;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "gYearMonth")
    public XMLGregorianCalendar period;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "gMonthDay")
    public XMLGregorianCalendar feast;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "gMonth")
    public XMLGregorianCalendar month;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "gDay")
    public XMLGregorianCalendar day;
    @XmlElement(namespace = NS)
    public XMLGregorianCalendar whenever;
    @XmlElement(namespace = NS)
    public Duration cooking;
    @XmlElement(namespace = NS)
    @XmlSchemaType(name = "base64Binary")
    public byte[] photo;
    @XmlElement(namespace = NS, required = true)
    public List<String> tag = new ArrayList<>();
    @XmlElement(namespace = NS)
    public List<Shelf> shelf;
    @XmlElementRef(name = "note", namespace = NS, type = JAXBElement.class, required = false)
    public JAXBElement<String> note;
    @XmlElements({
        @XmlElement(name = "pot", namespace = NS, type = Shelf.class),
        @XmlElement(name = "count", namespace = NS, type = Integer.class)
    })
    public List<Object> potOrCount;
    @XmlElement(namespace = NS)
    public Kitchen annex;
    @XmlElement(namespace = NS)
    public Object extra;
    // xjc leaves some optional elements without an annotation.
    protected String remark;
}
