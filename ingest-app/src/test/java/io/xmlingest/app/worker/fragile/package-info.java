@XmlSchema(namespace = "urn:xmlingest:test:fragile", elementFormDefault = XmlNsForm.QUALIFIED)
package io.xmlingest.app.worker.fragile;

import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
