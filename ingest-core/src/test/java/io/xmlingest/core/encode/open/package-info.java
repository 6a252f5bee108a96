/** A model with the open parts of XML Schema, written as xjc writes them (checked against xjc's output for the same schema). */
@XmlSchema(namespace = "urn:xmlingest:test:contact", elementFormDefault = XmlNsForm.QUALIFIED)
package io.xmlingest.core.encode.open;

import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
