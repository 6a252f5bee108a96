package io.xmlingest.core.config;

import static io.xmlingest.core.config.Validators.between;
import static io.xmlingest.core.config.Validators.bytesBetween;
import static io.xmlingest.core.config.Validators.oneOf;

import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;

/**
 * Every setting of the ingestion pipeline, declared once. Key names are published and are
 * forever: choose new ones with care.
 */
public final class IngestSettings {
    private IngestSettings() {
    }

    public static final Setting<List<QName>> RECORD_ELEMENT = Setting.of("record.element",
            SettingType.listOf(SettingType.QNAME), List.of(new QName("urn:xmlingest:sample:persons", "person")),
            "The element that is one record, namespace-qualified as {namespace-uri}local-name. The first such element "
                    + "at any depth starts a record; elements of the same name nested inside it are part of that record. "
                    + "Several, comma-separated, fan one file out in one pass: each element is its own record type, with "
                    + "the record.class, record.key and topic in the same position of those lists.",
            v -> v.isEmpty() ? "name at least one element"
                    : v.size() != new java.util.HashSet<>(v).size() ? "an element is named twice" : null);

    public static final Setting<Boolean> REQUIRE_RECORDS = Setting.of("file.require.records", SettingType.BOOLEAN, true,
            "Whether a file that holds no record.element element, but has an element with two children of one "
                    + "name, fails. Such a file is mostly one record.element does not match: fix the setting and drop the "
                    + "file again (a failed file is taken up again). false: it completes with 0 records, for files whose "
                    + "lists may hold no record beside repeated elements of another kind. A file with no such repetition "
                    + "(only a root, a header and a trailer, or a single record under a name record.element misses) "
                    + "completes with 0 records either way; a worker ingesting whole files (work.shards=0) does not take "
                    + "its content for ingested when it is dropped again, so it is read again once the setting is fixed.", v -> null);

    /** The record.class entry that means "no model": the record is converted schema-less. */
    public static final String SCHEMALESS = "-";

    public static final Setting<Long> DECOMPRESSED_MAX_BYTES = Setting.of("file.decompressed.max.bytes",
            SettingType.BYTES, 64L << 30,
            "Largest size a compressed input file (gzip, or a zip archive of one file) may decompress to. Such a "
                    + "file is decompressed to a plain copy before it is read (the worker's in processing/, ingest's "
                    + "in java.io.tmpdir); one that decompresses beyond this fails, so that a small file cannot fill "
                    + "the disk.", bytesBetween(1L << 20, 1L << 50));

    public static final Setting<List<String>> RECORD_CLASS = Setting.of("record.class",
            SettingType.listOf(SettingType.STRING), List.of("io.xmlingest.sample.persons.Person"),
            "The JAXB class each record is bound to, from the class path or model.path. One per record.element, "
                    + "or one for all. Where the model declares the element (its @XmlRootElement, or an object "
                    + "factory's), the class must be that one or of its kind: another is refused at start. '-', or an "
                    + "empty value, means no model: records are converted schema-less (see the README).",
            v -> v.stream().anyMatch(String::isBlank) ? "an entry is empty; write - for schema-less" : null);

    public static final Setting<List<String>> MODEL_PATH = Setting.of("model.path",
            SettingType.listOf(SettingType.STRING), List.of(),
            "Jar files or class directories holding the record.class model, comma-separated, such as the jar "
                    + "'model compile' makes from an XSD. Empty: the model is on the class path (the sample persons are).",
            v -> {
                for (String entry : v) {
                    if (entry.isBlank()) {
                        return "an entry is empty";
                    }
                    if (!java.nio.file.Files.isReadable(java.nio.file.Path.of(entry))) {
                        return "cannot read " + java.nio.file.Path.of(entry).toAbsolutePath();
                    }
                }
                return null;
            });

    public static final Setting<List<String>> RECORD_KEY = Setting.of("record.key",
            SettingType.listOf(SettingType.STRING), List.of("id"),
            "The attribute or child element (local name) of the record whose value is the message key; one per "
                    + "record.element, or one for all. Empty, or '-': the key is <file id>:<record index>. A record "
                    + "whose key value is missing, empty or blank is rejected.",
            v -> v.stream().anyMatch(String::isBlank) ? "an entry is empty; write - for <file id>:<record index>" : null);

    public static final Setting<List<String>> RECORD_SCHEMA = Setting.of("record.schema",
            SettingType.listOf(SettingType.STRING), List.of(),
            "XML Schema files (.xsd) every record is validated against while it is bound; a record that is not "
                    + "valid is rejected with the validator's message (the worker sends it to the dead letters). "
                    + "Each record element must be declared as a global element. The schemas may include or import "
                    + "local files only. Empty: no validation beyond binding. Needs a record.class: schema-less "
                    + "records are not validated.",
            v -> v.stream().anyMatch(String::isBlank) ? "an entry is empty" : null);

    public static final Setting<String> RECORD_UNMAPPED_CONTENT = Setting.of("record.unmapped.content",
            SettingType.STRING, "reject",
            "What happens to content of a record that its record.class has no place for, which JAXB itself drops "
                    + "without a word: an attribute the class does not declare (xsi:type and xsi:nil aside), any "
                    + "attribute on an element bound to a plain value, text directly inside an element that holds "
                    + "only elements, a second occurrence of an element the class holds once (or a second item of a "
                    + "choice it holds once, such as a substitution group's head; of an element the class has several places "
                    + "for, the first, where JAXB puts it), xsi:nil on an element "
                    + "the class does not let be nil (JAXB binds an empty value), content inside an element marked "
                    + "xsi:nil (JAXB binds null) or attributes on one that the class keeps as null, an xsi:type naming no "
                    + "kind of the element's declared type. reject: the record is "
                    + "rejected, naming what it found and where. drop: it is left out of the message, as JAXB does "
                    + "(of an element held once that appears again, the last one is kept). "
                    + "Unknown elements are rejected either way. Schema-less records keep everything.",
            oneOf("reject", "drop"));

    public static final Setting<Integer> RECORD_MAX_REJECTED = Setting.of("file.max.rejected.records", SettingType.INT,
            1000,
            "How many records of one file may be rejected (do not bind, miss a required value) before the "
                    + "whole file is failed. Rejected records are never published as records: ingest reports them "
                    + "with their position, the worker publishes each to the dead-letter topic with its raw XML.",
            between(0, Integer.MAX_VALUE));

    public static final Setting<List<String>> TOPIC = Setting.required("topic", SettingType.listOf(SettingType.STRING),
            "The Kafka topic that receives one message per record; with several record.element, one topic per "
                    + "element, or one for all.",
            Validators.topicNames());

    public static final Setting<String> TOPIC_DEAD_LETTERS = Setting.of("topic.dlq", SettingType.STRING, "",
            "The worker's dead-letter topic: one message per rejected record, with its raw XML, position and "
                    + "reason. Empty: <topic>.dlq, after the first topic.", Validators.topicName(true));

    public static final Setting<String> TOPIC_STATUS = Setting.of("topic.status", SettingType.STRING, "",
            "The worker's file status topic: started, completed and failed events, keyed by file id. "
                    + "Empty: <topic>.status, after the first topic.", Validators.topicName(true));

    public static final Setting<String> TOPIC_CHECKPOINTS = Setting.of("topic.checkpoints", SettingType.STRING, "",
            "The worker's compacted checkpoint topic: each file's progress, committed with its records. "
                    + "Empty: <topic>.checkpoints, after the first topic. Each of these four topic settings names topics "
                    + "of its own: one named twice is refused.", Validators.topicName(true));

    public static final Setting<Integer> TOPIC_PARTITIONS = Setting.of("topic.partitions", SettingType.INT, 3,
            "Partitions of each record topic when xmlingest creates it. An existing topic is used as it is.",
            between(1, 100_000));

    public static final Setting<Integer> TOPIC_REPLICATION_FACTOR = Setting.of("topic.replication.factor",
            SettingType.INT, -1,
            "Replication factor of each topic xmlingest creates (records, dead letters, status, checkpoints, work); "
                    + "-1 takes the broker's default.",
            Validators.rule("-1, or 1 to 32,767",
                    v -> v == -1 || (v >= 1 && v <= Short.MAX_VALUE) ? null : "must be -1 or between 1 and 32767"));

    public static final Setting<Long> TOPIC_READY_TIMEOUT_MS = Setting.of("topic.ready.timeout.ms", SettingType.LONG,
            60_000L,
            "How long to wait for the topic to exist with a leader on every partition before producing.",
            between(1, 3_600_000));

    public static final Setting<Integer> PAGE_MAX_RECORDS = Setting.of("page.max.records", SettingType.INT, 1000,
            "A page closes after this many records. A page is the unit handed to Kafka and confirmed as a whole.",
            between(1, 1_000_000));

    public static final Setting<Long> PAGE_MAX_BYTES = Setting.of("page.max.bytes", SettingType.BYTES, 4L * 1024 * 1024,
            "A page closes before its serialized keys and values exceed this size. "
                    + "A single record larger than this forms a page of its own.",
            bytesBetween(1024, 1L << 31));

    public static final Setting<Long> COMMIT_INTERVAL_MS = Setting.of("commit.interval.ms", SettingType.LONG, 100L,
            "The worker commits a transaction (its pages, dead letters, status events and checkpoint) once it holds a "
                    + "closed page and has been open this long; pages are sent to Kafka as they close. A crash repeats "
                    + "nothing, but redoes at most this much work. 0: a commit per page. At most half of "
                    + "kafka.transaction.timeout.ms, which Kafka would abort a longer transaction at.",
            between(0, 600_000));

    public static final Setting<Integer> BIND_THREADS = Setting.of("bind.threads", SettingType.INT, 0,
            "Threads that bind and serialize records while one thread reads the file and the caller publishes "
                    + "(with bind.on=binders); "
                    + "the worker hands records out in file order whatever the count. 0: one per available processor. "
                    + "At most twice page.max.records records, holding about twice page.max.bytes as copies or bound records, "
                    + "are between reading and publishing at any time.",
            between(0, 256));

    /** bind.on=auto binds on the reading thread up to this many available processors. */
    public static final int BIND_ON_READER_MAX_PROCESSORS = 2;

    public static final Setting<String> BIND_ON = Setting.of("bind.on", SettingType.STRING, "auto",
            "Where records are bound. binders: the thread that reads the file copies each record, and bind.threads "
            + "threads bind the copies and write their values, which goes further with more cores. reader: the "
            + "reading thread binds each record straight off the file, with no copy (but for a file whose DTD leaves "
            + "attribute defaults to check or declares namespaces, bound from a copy on that thread), and the thread "
            + "that publishes writes the values; bind.threads is unused, and the reading thread sets the pace. On 2 "
            + "cores reader took 2.6 to 5.3 us less CPU per record without Kafka, 0.5 to 3.6 in the worker; in wall "
            + "time the gain was within the shared host's noise (see the README's performance section). auto: reader with at "
            + "most " + BIND_ON_READER_MAX_PROCESSORS + " available processors, binders with more. binders whenever "
            + "xml.max.depth needs more than the JVM's default thread stack.",
            oneOf("auto", "reader", "binders"));

    public static final Setting<Integer> PUBLISH_MAX_PAGES_IN_FLIGHT = Setting.of("publish.max.pages.in.flight",
            SettingType.INT, 4,
            "Pages handed to Kafka but not yet acknowledged; reading waits when this many are outstanding, "
                    + "which bounds memory.", between(1, 64));

    public static final Setting<String> BOOTSTRAP_SERVERS = Setting.of("kafka.bootstrap.servers", SettingType.STRING,
            "",
            "Kafka brokers as host:port[,host:port...]. Empty: the command line starts an embedded "
                    + "single-node broker over a local data directory (see embedded.data.dir).", Validators.hostPorts());

    public static final Setting<String> COMPRESSION = Setting.of("kafka.compression.type", SettingType.STRING, "lz4",
            "Compression of record batches.", oneOf("none", "gzip", "snappy", "lz4", "zstd"));

    public static final Setting<Integer> LINGER_MS = Setting.of("kafka.linger.ms", SettingType.INT, 10,
            "How long the producer waits to fill a batch.", between(0, 60_000));

    public static final Setting<Long> BATCH_SIZE = Setting.of("kafka.batch.size", SettingType.BYTES, 256L * 1024,
            "Producer batch size per partition.", bytesBetween(1024, 64L * 1024 * 1024));

    public static final Setting<Long> MAX_REQUEST_SIZE = Setting.of("kafka.max.request.size", SettingType.BYTES,
            1024L * 1024,
            "Largest record (key + value + headers) the producer sends; a larger record is rejected. "
                    + "It must not exceed the topic's max.message.bytes. The worker needs at least 64KiB, room for "
                    + "its dead letters, status events and checkpoints.", bytesBetween(1024, 1L << 30));

    public static final Setting<Integer> DELIVERY_TIMEOUT_MS = Setting.of("kafka.delivery.timeout.ms", SettingType.INT,
            120_000,
            "How long ingest's producer retries one record before the send fails and the file with it. The worker's "
                    + "transactional producer does not give up: it waits, unready, until Kafka is back.",
            between(1_000, Integer.MAX_VALUE));

    public static final Setting<Integer> TRANSACTION_TIMEOUT_MS = Setting.of("kafka.transaction.timeout.ms",
            SettingType.INT, 60_000,
            "The worker's transaction timeout: a transaction left open this long by a worker that died is aborted "
                    + "by the broker. A restarted worker aborts its predecessor's at once.",
            between(1_000, 900_000));

    public static final Setting<Map<String, String>> KAFKA_CLIENT = Setting.family("kafka.client.",
            "Any other Kafka client setting, passed through to each client xmlingest makes that knows the key: "
                    + "producers (the worker's transactional one too), consumers (the checkpoint reader, read) and "
                    + "admin clients. For a secured cluster: kafka.client.security.protocol=SASL_SSL, "
                    + "kafka.client.sasl.mechanism, kafka.client.sasl.jaas.config, kafka.client.ssl.truststore.location "
                    + "(see the README). The key must be a Kafka producer, consumer or admin client setting, and its "
                    + "value is checked as Kafka checks it. Keys xmlingest sets itself are refused, naming what to use "
                    + "instead (bootstrap.servers is kafka.bootstrap.servers; acks, enable.idempotence, "
                    + "isolation.level, transactional.id, client.id and the serializers are fixed). Values of "
                    + "password settings and sasl.jaas.config are shown as [hidden].",
            KafkaClientKeys::check, KafkaClientKeys::isSecret);

    public static final Setting<Integer> XML_MAX_DEPTH = Setting.of("xml.max.depth", SettingType.INT, 500,
            "Deepest element nesting accepted in a file.", between(1, 100_000));

    public static final Setting<Integer> XML_MAX_ATTRIBUTES = Setting.of("xml.max.attributes", SettingType.INT, 500,
            "Most attributes accepted on one element.", between(1, 1_000_000));

    // Woodstox counts Java chars, so the limits' characters are those, which the docs must say.
    private static final String UTF16_UNITS = " (UTF-16 code units: one beyond U+FFFF, such as an emoji, counts as two)";

    public static final Setting<Long> XML_MAX_ATTRIBUTE_SIZE = Setting.of("xml.max.attribute.size", SettingType.BYTES,
            64L * 1024, "Longest attribute value accepted, in characters" + UTF16_UNITS + ".", bytesBetween(16, 1L << 30));

    public static final Setting<Long> XML_MAX_TEXT_SIZE = Setting.of("xml.max.text.size", SettingType.BYTES,
            16L * 1024 * 1024, "Longest text accepted between two tags, in characters" + UTF16_UNITS + ", counted as one across "
                    + "references, CDATA sections and comments, as the record's value joins them.", bytesBetween(16, 1L << 30));

    public static final Setting<Long> XML_MAX_RECORD_SIZE = Setting.of("xml.max.record.size", SettingType.BYTES,
            16L * 1024 * 1024,
            "Largest record accepted, in characters" + UTF16_UNITS + " from the start of its start tag to the "
                    + "end of its end tag, checked at each of its tags. A larger "
                    + "record is rejected (skipped without being held in memory) and the file goes on. Under "
                    + "xml.doctype=internal its text with the entities expanded counts too.",
            bytesBetween(1024, 1L << 40));

    public static final Setting<String> XML_DOCTYPE = Setting.of("xml.doctype", SettingType.STRING, "ignore",
            "What a DOCTYPE may do. reject: any DOCTYPE fails the file. ignore: the DTD is not processed, and a "
                    + "reference to an entity it declares fails the file, as does an element of a record that leaves "
                    + "out an attribute its internal subset gives a default (a value the file means). internal: entities "
                    + "declared in the internal subset are expanded within xml.max.entity.expansions and "
                    + "xml.max.entity.depth, and its attribute defaults applied. No policy ever "
                    + "reads an external DTD, an external entity or anything else a document names.",
            oneOf("reject", "ignore", "internal"));

    public static final Setting<Integer> XML_MAX_ENTITY_EXPANSIONS = Setting.of("xml.max.entity.expansions",
            SettingType.INT, 10_000,
            "Most entity expansions in one file under xml.doctype=internal, counted from where a run begins reading "
                    + "it (a resumed file's count starts again). The one limit on a whole file: an expansion multiplies "
                    + "what the file holds, and a count per record would let every small record expand that much. A "
                    + "large export with an entity in many of its records needs it raised.", between(1, 100_000_000));

    public static final Setting<Integer> XML_MAX_ENTITY_DEPTH = Setting.of("xml.max.entity.depth", SettingType.INT, 4,
            "Deepest nesting of entities within entities under xml.doctype=internal.", between(1, 100));

    public static final List<Setting<?>> ALL = List.of(
            RECORD_ELEMENT, RECORD_CLASS, MODEL_PATH, RECORD_KEY, RECORD_SCHEMA, RECORD_UNMAPPED_CONTENT, RECORD_MAX_REJECTED,
            REQUIRE_RECORDS, DECOMPRESSED_MAX_BYTES,
            TOPIC, TOPIC_DEAD_LETTERS, TOPIC_STATUS, TOPIC_CHECKPOINTS, TOPIC_PARTITIONS, TOPIC_REPLICATION_FACTOR, TOPIC_READY_TIMEOUT_MS,
            PAGE_MAX_RECORDS, PAGE_MAX_BYTES, COMMIT_INTERVAL_MS, BIND_THREADS, BIND_ON, PUBLISH_MAX_PAGES_IN_FLIGHT,
            BOOTSTRAP_SERVERS, COMPRESSION, LINGER_MS, BATCH_SIZE, MAX_REQUEST_SIZE, DELIVERY_TIMEOUT_MS,
            TRANSACTION_TIMEOUT_MS, KAFKA_CLIENT,
            XML_MAX_DEPTH, XML_MAX_ATTRIBUTES, XML_MAX_ATTRIBUTE_SIZE, XML_MAX_TEXT_SIZE,
            XML_MAX_RECORD_SIZE, XML_DOCTYPE, XML_MAX_ENTITY_EXPANSIONS, XML_MAX_ENTITY_DEPTH);
}
