package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** Two steps from {@link Place}: found only by following @XmlSeeAlso from type to type. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "HeatedLocker", namespace = Parcel.NS, propOrder = {"celsius"})
public class HeatedLocker extends Locker {
    @XmlElement(namespace = Parcel.NS)
    public Integer celsius;
}
