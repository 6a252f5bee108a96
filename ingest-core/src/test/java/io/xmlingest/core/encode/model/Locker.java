package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlType;

/** Derived from {@link Place} by extension; itself the base of {@link HeatedLocker}. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Locker", namespace = Parcel.NS, propOrder = {"locker"})
@XmlSeeAlso({HeatedLocker.class})
public class Locker extends Place {
    @XmlElement(namespace = Parcel.NS, required = true)
    public int locker;
}
