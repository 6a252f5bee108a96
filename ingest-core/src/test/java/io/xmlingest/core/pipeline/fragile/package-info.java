@XmlSchema(namespace = "urn:xmlingest:test:parts", elementFormDefault = XmlNsForm.QUALIFIED)
package io.xmlingest.core.pipeline.fragile;

import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
