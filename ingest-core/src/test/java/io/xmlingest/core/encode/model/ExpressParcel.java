package io.xmlingest.core.encode.model;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/** The record's own type extended: xsi:type on the record element. */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "ExpressParcel", namespace = Parcel.NS, propOrder = {"by"})
public class ExpressParcel extends Parcel {
    @XmlElement(namespace = Parcel.NS, required = true)
    public String by;
}
