package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

/** A base type as xjc writes it: the derived types it knows are listed in @XmlSeeAlso. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Place", namespace = Parcel.NS, propOrder = {"city"})
@XmlSeeAlso({Locker.class})
public class Place {
    @XmlElement(namespace = Parcel.NS, required = true)
    public String city;
}
