@XmlSchema(namespace = "urn:xmlingest:test:folder", elementFormDefault = XmlNsForm.QUALIFIED)
package io.xmlingest.core.pipeline.deep;

import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
