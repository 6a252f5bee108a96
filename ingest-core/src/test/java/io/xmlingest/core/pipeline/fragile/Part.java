package io.xmlingest.core.pipeline.fragile;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter;

/**
 * A model whose name adapter throws {@link Names#error} on the name {@code poison}, and on the name
 * {@code stall} waits until {@link Names#stall} opens, holding its binder thread.
 */
@XmlAccessorType(XmlAccessType.FIELD)
@XmlType(name = "Part", propOrder = {"sku", "name"})
@XmlRootElement(name = "part")
public class Part {
    @XmlElement(required = true)
    protected String sku;
    @XmlElement(required = true)
    @XmlJavaTypeAdapter(Names.class)
    protected String name;

    public static final class Names extends XmlAdapter<String, String> {
        /** What the adapter throws; a test sets it. */
        public static volatile Error error = new NoClassDefFoundError("com/example/MissingHelper");

        /** What a record named {@code stall} waits for; a test sets it. */
        public static volatile java.util.concurrent.CountDownLatch stall = new java.util.concurrent.CountDownLatch(0);

        @Override
        public String unmarshal(String v) throws InterruptedException {
            if ("poison".equals(v)) {
                throw error;
            }
            if ("stall".equals(v)) {
                stall.await(30, java.util.concurrent.TimeUnit.SECONDS);
            }
            return v;
        }

        @Override
        public String marshal(String v) {
            return v;
        }
    }
}
