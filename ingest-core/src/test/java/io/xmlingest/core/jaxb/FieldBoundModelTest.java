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

    /** A value class of the user's, and its adapter to the text XML holds ("9.99 EUR"). */
    public record Money(java.math.BigDecimal amount, String currency) {
    }

    public static class MoneyAdapter extends jakarta.xml.bind.annotation.adapters.XmlAdapter<String, Money> {
        @Override
        public Money unmarshal(String text) {
            String[] parts = text.strip().split(" ");
            return new Money(new java.math.BigDecimal(parts[0]), parts[1]);
        }

        @Override
        public String marshal(Money money) {
            return money.amount().toPlainString() + " " + money.currency();
        }
    }

    /**
     * Types JAXB binds by itself or through an adapter, which the encoder wrote as their toString():
     * "Mon Jan 01 05:00:00 UTC 2024", "java.util.GregorianCalendar[time=?,...", "Money[amount=...", "A".
     */
    @XmlRootElement(name = "deal")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Deal", propOrder = {"when", "cal", "price", "prices", "ch"})
    public static class Deal {
        @jakarta.xml.bind.annotation.XmlAttribute
        protected String id;
        protected java.util.Date when;
        protected java.util.Calendar cal;
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(MoneyAdapter.class)
        protected Money price;
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(MoneyAdapter.class)
        protected java.util.List<Money> prices;
        protected Character ch;
    }

    /** JAXB empties the list at each wrapper and drops what else a wrapper holds: refused, not written. */
    @XmlRootElement(name = "wrapped")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Wrapped")
    public static class Wrapped {
        @jakarta.xml.bind.annotation.XmlElementWrapper(name = "items")
        @jakarta.xml.bind.annotation.XmlElement(name = "item")
        protected java.util.List<String> items;
    }

    /** Binary content JAXB binds by itself, with no text form the encoder writes. */
    @XmlRootElement(name = "attachment")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Attachment")
    public static class Attachment {
        protected jakarta.activation.DataHandler data;
    }

    /** An attribute and an element, and an attribute and the text, of one name each. */
    @XmlRootElement(name = "amount")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Amount", propOrder = {"idElement", "unit"})
    public static class Amount {
        @jakarta.xml.bind.annotation.XmlAttribute
        protected String id;
        @jakarta.xml.bind.annotation.XmlElement(name = "id")
        protected String idElement;
        protected Unit unit;
    }

    @XmlRootElement(name = "unit")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Unit")
    public static class Unit {
        @jakarta.xml.bind.annotation.XmlAttribute(name = "value")
        protected String valueAttribute;
        @jakarta.xml.bind.annotation.XmlValue
        protected java.math.BigDecimal value;
    }

    private static String key(Class<?> type, String property, String xml) throws Exception {
        Object bound = JAXBContext.newInstance(type).createUnmarshaller().unmarshal(new StringReader(xml));
        return new String(io.xmlingest.core.encode.RecordKeys.of(type, property).keyOf(bound), StandardCharsets.UTF_8);
    }

    @Test
    void adaptedDateCalendarAndCharValuesAreWrittenAsTheirXmlNotTheirToString() throws Exception {
        String xml = "<deal id='d'><when>2024-01-01T10:00:00+05:00</when><cal>2024-01-01T10:00:00.5+05:00</cal>"
                + "<price>9.99 EUR</price><prices>1 EUR</prices><prices>2.50 GBP</prices><ch>65</ch></deal>";
        // A Date keeps no zone, so its instant is written in UTC; a Calendar keeps its own.
        assertThat(written(Deal.class, xml)).isEqualTo("{\"id\":\"d\",\"when\":\"2024-01-01T05:00:00.000Z\","
                + "\"cal\":\"2024-01-01T10:00:00.500+05:00\",\"price\":\"9.99 EUR\",\"prices\":[\"1 EUR\",\"2.50 GBP\"],"
                + "\"ch\":65}");
        assertThat(key(Deal.class, "price", xml)).isEqualTo("9.99 EUR");
        assertThat(key(Deal.class, "when", xml)).isEqualTo("2024-01-01T05:00:00.000Z");
        assertThat(key(Deal.class, "ch", xml)).isEqualTo("65");
    }

    /** Not safe to share between threads, as many hand-written adapters are not: JAXB makes one per unmarshaller. */
    public static class DayAdapter extends jakarta.xml.bind.annotation.adapters.XmlAdapter<String, java.util.Date> {
        private final java.text.SimpleDateFormat format = new java.text.SimpleDateFormat("yyyy-MM-dd");

        {
            format.setTimeZone(java.util.TimeZone.getTimeZone("UTC"));
        }

        @Override
        public java.util.Date unmarshal(String text) throws Exception {
            return format.parse(text);
        }

        @Override
        public String marshal(java.util.Date value) {
            return format.format(value);
        }
    }

    @XmlRootElement(name = "day")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Day")
    public static class Day {
        /** An xs:date held in a Date: the adapter, not the Date, says it is a date and not a dateTime. */
        @jakarta.xml.bind.annotation.adapters.XmlJavaTypeAdapter(DayAdapter.class)
        @jakarta.xml.bind.annotation.XmlSchemaType(name = "date")
        protected java.util.Date on;
        protected java.net.URL home;
    }

    @Test
    void anAdaptedDateIsWrittenByItsAdapterOnEveryThreadAlike() throws Exception {
        // Written as a Date it was "2020-01-01T00:00:00.000Z", a dateTime the file never had.
        assertThat(written(Day.class, "<day><on>2020-01-01</on><home>http://example.org/a</home></day>"))
                .isEqualTo("{\"on\":\"2020-01-01\",\"home\":\"http://example.org/a\"}");
        // One adapter instance serves every binder thread: unguarded, its SimpleDateFormat wrote wrong days.
        JAXBContext context = JAXBContext.newInstance(Day.class);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> wrong = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                wrong.add(pool.submit(() -> {
                    JsonRecordEncoder encoder = new JsonRecordEncoder();
                    int bad = 0;
                    for (int i = 0; i < 3000; i++) {
                        String day = java.time.LocalDate.of(2000 + thread, 1, 1).plusDays(i % 365).toString();
                        Object bound = context.createUnmarshaller().unmarshal(new StringReader("<day><on>" + day + "</on></day>"));
                        if (!new String(encoder.encode(bound), StandardCharsets.UTF_8).equals("{\"on\":\"" + day + "\"}")) {
                            bad++;
                        }
                    }
                    return bad;
                }));
            }
            for (java.util.concurrent.Future<Integer> w : wrong) {
                assertThat(w.get()).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anAttributeSharingItsNameWithAnElementOrTheTextIsWrittenWithAnAt() throws Exception {
        // Before, {"id":"1","id":"e"}: most JSON readers keep the last of two members of one name.
        assertThat(written(Amount.class, "<amount id='1'><id>e</id><unit value='kg'>2.5</unit></amount>"))
                .isEqualTo("{\"@id\":\"1\",\"id\":\"e\",\"unit\":{\"@value\":\"kg\",\"value\":2.5}}");
        assertThat(io.xmlingest.core.encode.JsonSchemaWriter.schemaOf(Amount.class).toString())
                .contains("@id=").contains("@value=");
        // The key of that name is the element's, written under it, as schema-less mode has it.
        assertThat(key(Amount.class, "id", "<amount id='1'><id>e</id></amount>")).isEqualTo("e");
        // The text is never a key, so an attribute named "value" beside it still is one.
        assertThat(key(Unit.class, "value", "<unit value='kg'>2.5</unit>")).isEqualTo("kg");
    }

    @XmlRootElement(name = "linked")
    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Linked")
    public static class Linked {
        @jakarta.xml.bind.annotation.XmlAttribute
        @jakarta.xml.bind.annotation.XmlIDREF
        protected Object ref;
        protected java.util.List<Target> target;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @jakarta.xml.bind.annotation.XmlType(name = "Target")
    public static class Target {
        @jakarta.xml.bind.annotation.XmlAttribute
        @jakarta.xml.bind.annotation.XmlID
        protected String id;
    }

    @Test
    void anIdrefKeyIsTheIdItNames() throws Exception {
        // Before: the key was the toString() of the object JAXB resolved the reference to, new on every run.
        assertThat(key(Linked.class, "ref", "<linked ref='i1'><target id='i1'/></linked>")).isEqualTo("i1");
    }

    @Test
    void aWrapperOrAValueWithNoXmlFormIsRefusedAtStart() {
        assertThatThrownBy(() -> check(Wrapped.class)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("has its property 'items' in an @XmlElementWrapper")
                .hasMessageContaining("(setting: record.class)");
        assertThatThrownBy(() -> check(Attachment.class)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("has its property 'data' of type jakarta.activation.DataHandler, which xmlingest "
                        + "cannot write as its XML: give the field an @XmlJavaTypeAdapter");
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
