package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;
import java.util.ArrayList;
import java.util.List;

/** A record whose places, and the record itself, may arrive as a derived type chosen in the XML with xsi:type. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlRootElement(name = "parcel", namespace = Parcel.NS)
@XmlType(name = "Parcel", namespace = Parcel.NS, propOrder = {"id", "to", "via"})
@XmlSeeAlso({ExpressParcel.class})
public class Parcel {
    public static final String NS = "urn:xmlingest:test:parcel";

    @XmlElement(namespace = NS, required = true)
    public String id;
    @XmlElement(namespace = NS, required = true)
    public Place to;
    @XmlElement(namespace = NS)
    public List<Place> via = new ArrayList<>();
}
