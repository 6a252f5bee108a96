package io.xmlingest.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xmlingest.core.error.ConfigException;
import java.util.Map;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

class IngestConfigTest {

    @Test
    void flagsWinOverEnvironmentOverFileOverDefaults() {
        IngestConfig c = IngestConfig.resolve(IngestSettings.ALL,
                Map.of("page.max.records", "10"),
                Map.of("XMLINGEST_PAGE_MAX_RECORDS", "20", "XMLINGEST_TOPIC_PARTITIONS", "7", "PATH", "/bin"),
                Map.of("page.max.records", "30", "topic.partitions", "8", "kafka.linger.ms", "99"));
        assertThat(c.get(IngestSettings.PAGE_MAX_RECORDS)).isEqualTo(10);
        assertThat(c.sourceOf(IngestSettings.PAGE_MAX_RECORDS)).isEqualTo(IngestConfig.Source.FLAG);
        assertThat(c.get(IngestSettings.TOPIC_PARTITIONS)).isEqualTo(7);
        assertThat(c.sourceOf(IngestSettings.TOPIC_PARTITIONS)).isEqualTo(IngestConfig.Source.ENVIRONMENT);
        assertThat(c.get(IngestSettings.LINGER_MS)).isEqualTo(99);
        assertThat(c.sourceOf(IngestSettings.LINGER_MS)).isEqualTo(IngestConfig.Source.FILE);
        assertThat(c.get(IngestSettings.COMPRESSION)).isEqualTo("lz4");
        assertThat(c.sourceOf(IngestSettings.COMPRESSION)).isEqualTo(IngestConfig.Source.DEFAULT);
    }

    @Test
    void parsesTypedValues() {
        IngestConfig c = IngestConfig.of(IngestSettings.ALL, Map.of("page.max.bytes", "2MiB",
                "record.element", "{urn:x}order", "topic", "t"));
        assertThat(c.get(IngestSettings.PAGE_MAX_BYTES)).isEqualTo(2L * 1024 * 1024);
        assertThat(c.get(IngestSettings.RECORD_ELEMENT)).containsExactly(new QName("urn:x", "order"));
        assertThat(c.get(IngestSettings.TOPIC)).containsExactly("t");
    }

    @Test
    void anInvalidValueNamesTheKeyAndTheValue() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.records", "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("page.max.records").hasMessageContaining("'0'").hasMessageContaining("between 1");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("kafka.compression.type", "brotli")))
                .hasMessageContaining("kafka.compression.type").hasMessageContaining("lz4");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.bytes", "lots")))
                .hasMessageContaining("page.max.bytes").hasMessageContaining("byte count");
        // A number too large for its type is out of the setting's own range, which is what to state;
        // it was "not a whole number", then the type's range.
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.records", "99999999999")))
                .hasMessageContaining("page.max.records").hasMessageContaining("must be between 1 and ")
                .hasMessageNotContaining("2147483647");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.records", "-99999999999")))
                .hasMessageContaining("must be between 1 and ");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.bytes", "99999999999GiB")))
                .hasMessageContaining("page.max.bytes").hasMessageContaining("must be between ");
        // A byte count's bounds as the setting takes them: it said "between 1048576 and 1125899906842624".
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("file.decompressed.max.bytes", "1KiB")))
                .hasMessageContaining("must be between 1MiB and 1024TiB");
        assertThat(IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "file.decompressed.max.bytes", "2TiB"))
                .get(IngestSettings.DECOMPRESSED_MAX_BYTES)).isEqualTo(2L << 40);
        // A setting whose range is the type's own keeps the type's words.
        assertThatThrownBy(() -> Setting.of("any.bytes", SettingType.BYTES, 1L, "d", Validators.rule("any", v -> null)).parse("99999999999GiB"))
                .hasMessageContaining("out of range (at most 9223372036854775807 bytes)");
        assertThatThrownBy(() -> Setting.of("any.int", SettingType.INT, 1, "d", Validators.rule("any", v -> null)).parse("-99999999999"))
                .hasMessageContaining("out of range (-2147483648 to 2147483647)");
    }

    @Test
    void topicNamesAndBrokerAddressesAreCheckedBeforeKafkaIsAsked() {
        // Before, 'a b' passed, and the broker's refusal to create it came out as the topic never becoming ready
        // (exit 4, naming topic.ready.timeout.ms); 'nohostport' came out as a stack trace from the client.
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "ok,a b")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("topic")
                .hasMessageContaining("topic name 'a b' has ' ' at 2: Kafka allows only ASCII letters, digits, '.', '_' and '-'");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "topic.dlq", "bad/topic")))
                .hasMessageContaining("topic.dlq").hasMessageContaining("'/' at 4");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "x".repeat(250))))
                .hasMessageContaining("250 characters, Kafka allows at most 249");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "..")))
                .hasMessageContaining("'..' is not a topic name Kafka allows");
        for (String bad : new String[] {"nohostport", "broker:", "broker:port", ":9092", "b:70000", "b:0"}) {
            assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "kafka.bootstrap.servers", bad)))
                    .as(bad).isInstanceOf(ConfigException.class).hasMessageContaining("kafka.bootstrap.servers")
                    .hasMessageContaining("is not host:port");
        }
        // The Kafka client refuses an empty entry once it starts, with a stack trace.
        for (String bad : new String[] {"a:9092,", "a:9092, ", ",a:9092", "a:1,,b:2"}) {
            assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "kafka.bootstrap.servers", bad)))
                    .as(bad).isInstanceOf(ConfigException.class).hasMessageContaining("kafka.bootstrap.servers")
                    .hasMessageContaining("has an empty entry: a comma too many?");
        }
        for (String good : new String[] {"", "broker:9092", "a:1, b:2", "[::1]:9092", "10.0.0.1:9093,kafka-2.example.org:9094"}) {
            assertThat(IngestConfig.of(IngestSettings.ALL, Map.of("topic", "my.topic_1-A", "kafka.bootstrap.servers", good))
                    .get(IngestSettings.BOOTSTRAP_SERVERS)).isEqualTo(good);
        }
    }

    @Test
    void aRecordElementIsANamespaceAndAnElementName() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "p:person")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("record.element")
                .hasMessageContaining("'p:person' has a prefix, which means nothing outside a document; write the "
                        + "namespace itself: {namespace-uri}person");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "{urn:x}per son")))
                .hasMessageContaining("'per son' is not an XML element name: a space at 4");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "{urn:x}1st")))
                .hasMessageContaining("'1st' is not an XML element name: '1' at 1 (a name starts with a letter or '_')");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "{urn:x}p:person")))
                .hasMessageContaining("'p:person' is not an XML element name: ':' at 2");
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "{urn:x}a>b")))
                .hasMessageContaining("'a>b' is not an XML element name: '>' at 2");
        // Names as the parser that reads the files takes them: what it refuses could match no element it reads.
        assertThat(IngestConfig.of(IngestSettings.ALL, Map.of("record.element", "{urn:x}_ré-cord.2,Überweisung,{urn:x}نامه"))
                .get(IngestSettings.RECORD_ELEMENT))
                .containsExactly(new QName("urn:x", "_ré-cord.2"), new QName("", "Überweisung"), new QName("urn:x", "نامه"));
    }

    @Test
    void anInvalidEnvironmentValueNamesTheKey() {
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_KAFKA_LINGER_MS", "soon"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("kafka.linger.ms")
                .hasMessageContaining("(from the environment variable XMLINGEST_KAFKA_LINGER_MS)");
        // Not in sight on the command line either: the message says where the value came from.
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(), Map.of(),
                Map.of("xml.max.depth", "abc")))
                .hasMessageContaining("invalid value 'abc' for xml.max.depth").hasMessageContaining("(from the --config file)");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of("no.such.key", "1"), Map.of(), Map.of()))
                .hasMessageStartingWith("unknown setting no.such.key");
    }

    @Test
    void anUnknownKeyIsAnErrorWithASuggestion() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("page.max.record", "5")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("page.max.record").hasMessageContaining("did you mean page.max.records");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_PAGE_MAX_RECORD", "5"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("XMLINGEST_PAGE_MAX_RECORD")
                .hasMessageContaining("did you mean XMLINGEST_PAGE_MAX_RECORDS?");
        // Nothing near: where they all are, not a list cut off by the length a reason keeps.
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_SOMETHING_ELSE_ENTIRELY", "5"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown environment variable XMLINGEST_SOMETHING_ELSE_ENTIRELY; each setting's "
                        + "variable is in the table 'config --doc' prints")
                .hasMessageNotContaining("more characters");
    }

    @Test
    void aRenamedSettingNamesItsNewName() {
        assertThatThrownBy(() -> IngestConfig.of(IngestSettings.ALL, Map.of("file.gzip.max.bytes", "2MiB")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("setting file.gzip.max.bytes was renamed file.decompressed.max.bytes: use that name");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(), Map.of(), Map.of("file.gzip.max.bytes",
                "2MiB"))).hasMessageStartingWith("config file key file.gzip.max.bytes was renamed file.decompressed.max.bytes");
        assertThatThrownBy(() -> IngestConfig.resolve(IngestSettings.ALL, Map.of(),
                Map.of("XMLINGEST_FILE_GZIP_MAX_BYTES", "2MiB"), Map.of()))
                .hasMessageStartingWith("environment variable XMLINGEST_FILE_GZIP_MAX_BYTES was renamed "
                        + "XMLINGEST_FILE_DECOMPRESSED_MAX_BYTES (setting file.decompressed.max.bytes): use that name")
                .hasMessageEndingWith("(setting: file.decompressed.max.bytes)");
        // Each new name is a declared setting.
        assertThat(IngestConfig.RENAMED.values()).allMatch(k -> IngestSettings.ALL.stream().anyMatch(s -> s.key().equals(k)));
    }

    @Test
    void aMissingRequiredSettingNamesItsKeyAndVariable() {
        IngestConfig c = IngestConfig.of(IngestSettings.ALL, Map.of());
        assertThatThrownBy(() -> c.get(IngestSettings.TOPIC))
                .isInstanceOf(ConfigException.class).hasMessageContaining("topic").hasMessageContaining("XMLINGEST_TOPIC");
    }

    @Test
    void withKeepsEarlierChoicesAndAddsNewOnes() {
        IngestConfig c = IngestConfig.of(IngestSettings.ALL, Map.of("topic", "t", "page.max.records", "5"));
        IngestConfig d = c.with(Map.of("kafka.bootstrap.servers", "h:1"));
        assertThat(d.get(IngestSettings.TOPIC)).containsExactly("t");
        assertThat(d.get(IngestSettings.PAGE_MAX_RECORDS)).isEqualTo(5);
        assertThat(d.get(IngestSettings.BOOTSTRAP_SERVERS)).isEqualTo("h:1");
        assertThat(c.get(IngestSettings.BOOTSTRAP_SERVERS)).isEmpty();
    }

    @Test
    void theDocTableListsEverySettingOnce() {
        String table = ConfigDocPrinter.markdownTable(IngestSettings.ALL);
        for (Setting<?> s : IngestSettings.ALL) {
            assertThat(table).containsOnlyOnce("| `" + s.documentedKey() + "` |");
        }
        assertThat(table).contains("`4MiB`").contains("(required)");
    }
}
