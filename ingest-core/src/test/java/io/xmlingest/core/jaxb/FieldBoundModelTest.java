package io.xmlingest.core.jaxb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ConfigException;
import io.xmlingest.core.pipeline.RecordModel;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlRootElement;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-written models, bound by JAXB in ways the encoder did not write: before, each was published
 * without a word, as its toString() or without the values JAXB had set.
 */
class FieldBoundModelTest {

    /** No @XmlType: it was published as "io.xmlingest...RootOnly@1b2c3d". */
    @XmlRootElement(name = "thing")
    @XmlAccessorType(XmlAccessType.FIELD)
    public static class RootOnly {
        protected String sku;
        protected String name;
    }

    /** JAXB's default access (PUBLIC_MEMBER) binds the getter and setter: it was published as {}. */
    @XmlRootElement(name = "bean")
    public static class Bean {
        private String sku;

        public String getSku() {
            return sku;
        }

        public void setSku(String sku) {
            this.sku = sku;
        }
    }

    /** Field access binds private fields too; the encoder writes unannotated ones only when protected or public. */
    @XmlRootElement(name = "hidden")
    @XmlAccessorType(XmlAccessType.FIELD)
    public static class Hidden {
        protected String sku;
        private String secret;
    }

    /** A base JAXB leaves out of the model: its fields are the subclass's properties. */
    @jakarta.xml.bind.annotation.XmlTransient
    @XmlAccessorType(XmlAccessType.FIELD)
    public abstract static class Base {
        protected String sku;
    }

    @XmlRootElement(name = "derived")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Derived", propOrder = {"sku", "name"})
    public static class Derived extends Base {
        protected String name;
    }

    private static void check(Class<?> type) throws Exception {
        FieldBoundModel.check(JAXBContext.newInstance(type));
    }

    /** {@code xml} bound to {@code type}, once the check has let it through, as the encoder writes it. */
    private static String written(Class<?> type, String xml) throws Exception {
        check(type);
        Object bound = JAXBContext.newInstance(type).createUnmarshaller().unmarshal(new StringReader(xml));
        return new String(new JsonRecordEncoder().encode(bound), StandardCharsets.UTF_8);
    }

    @Test
    void aRecordClassWithOnlyXmlRootElementIsWrittenAsAnObject() throws Exception {
        assertThat(written(RootOnly.class, "<thing><sku>A-1</sku><name>a lamp</name></thing>"))
                .isEqualTo("{\"sku\":\"A-1\",\"name\":\"a lamp\"}");
    }

    @Test
    void theFieldsOfATransientBaseAreTheSubclasssAndAreWritten() throws Exception {
        assertThat(written(Derived.class, "<derived><sku>A-1</sku><name>a lamp</name></derived>"))
                .isEqualTo("{\"sku\":\"A-1\",\"name\":\"a lamp\"}");
    }

    @Test
    void aModelXmlingestWouldNotWriteWholeIsRefusedNamingTheClassAndTheFix() {
        assertThatThrownBy(() -> check(Bean.class)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("model class " + Bean.class.getName() + " has its property 'sku' bound through "
                        + "a getter and setter")
                .hasMessageContaining("annotate it @XmlAccessorType(XmlAccessType.FIELD)")
                .hasMessageContaining("(setting: record.class)");
        assertThatThrownBy(() -> check(Hidden.class)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("has its property 'secret' bound by JAXB, but xmlingest does not write it");
    }

    @Test
    void theCheckRunsWhenTheModelIsBuiltSoTheWorkerDoesNotStart() {
        IngestConfig config = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t",
                "record.element", "bean", "record.class", Bean.class.getName()));
        assertThatThrownBy(() -> RecordModel.of(config)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("bound through a getter and setter");
    }
}
