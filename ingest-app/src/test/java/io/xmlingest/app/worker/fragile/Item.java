package io.xmlingest.app.worker.fragile;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;

/**
 * A model whose own code fails as a model can in production: its name adapter needs a class that
 * is missing at run time, but only on the path one value takes. JAXB lets an Error through, and
 * nothing in xmlingest can tell whether the JVM is still sound after one, so it stops the worker.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Item", propOrder = {"sku", "name"})
@XmlRootElement(name = "item")
public class Item {
    @XmlElement(required = true)
    protected String sku;
    @XmlElement(required = true)
    @XmlJavaTypeAdapter(Names.class)
    protected String name;

    /** Stops the worker on the name {@code poison}, as a missing dependency would. */
    public static final class Names extends XmlAdapter<String, String> {
        @Override
        public String unmarshal(String v) {
            if ("poison".equals(v)) {
                throw new NoClassDefFoundError("com/example/fragile/MissingHelper");
            }
            return v;
        }

        @Override
        public String marshal(String v) {
            return v;
        }
    }
}
