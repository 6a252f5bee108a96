package io.xmlingest.bench.strategy;

import com.ctc.wstx.stax.WstxInputFactory;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.split.CompressedInput;
import io.xmlingest.sample.persons.Person;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.xml.stream.XMLInputFactory;

/** Every strategy the bench knows, by name, in report order. */
public final class Strategies {
    private Strategies() {
    }

    /** What a strategy is, for grouping in the report. */
    public enum Kind { CEILING, STUDY, PEER, OURS }

    /** A strategy's name, kind, one-line description, whether it needs a broker, and how to make it. */
    public record Entry(String name, Kind kind, String description, boolean needsBroker, Supplier<Strategy> create) {
    }

    private static final Map<String, Entry> ALL = new LinkedHashMap<>();

    private static void add(String name, Kind kind, boolean broker, String description, Supplier<Strategy> create) {
        ALL.put(name, new Entry(name, kind, description, broker, create));
    }

    static {
        add("raw-read", Kind.CEILING, false, "read the file's bytes, nothing else", RawRead::new);
        add("woodstox-scan", Kind.CEILING, false, "Woodstox cursor over every event, no binding", WoodstoxScan::new);
        add("kafka-producer", Kind.CEILING, true,
                "Kafka producer alone: as many pre-serialized person messages, same settings, same broker",
                ProducerCeiling::new);
        add("jaxb-whole-document", Kind.STUDY, false, "JAXB unmarshals the whole document into one tree",
                WholeDocumentJaxb::new);
        add("jdk-stax-jaxb", Kind.STUDY, false, "JDK StAX cursor + JAXB per record",
                () -> new CursorJaxb(XMLInputFactory::newDefaultFactory, Person::getId));
        add("woodstox-jaxb", Kind.STUDY, false, "Woodstox cursor + JAXB per record",
                () -> new CursorJaxb(WstxInputFactory::new, Person::getId));
        add("woodstox-jaxb-json", Kind.STUDY, false,
                "Woodstox cursor + JAXB per record + our JSON encoder, one thread, no Kafka (issue 6's baseline)",
                Strategies::woodstoxJaxbJson);
        add("aalto-jaxb", Kind.STUDY, false, "Aalto cursor + JAXB per record",
                () -> new CursorJaxb(com.fasterxml.aalto.stax.InputFactoryImpl::new, Person::getId));
        add("spring-batch", Kind.PEER, false, "Spring Batch StaxEventItemReader + Jaxb2Marshaller, read to the end",
                SpringBatchReader::new);
        add("ours-split-bind", Kind.OURS, false, "xmlingest splitter + strict binder", OursSplitBind::new);
        add("ours-serialize", Kind.OURS, false, "xmlingest pipeline: split + bind + JSON, pages dropped",
                () -> new OursPipeline(false));
        add("ours-end-to-end", Kind.OURS, true, "xmlingest pipeline into a real broker (the plain ingest path)",
                () -> new OursPipeline(true));
        add("ours-exactly-once", Kind.OURS, true, "xmlingest worker path: TransactionalIngestion into a real broker, "
                + "file hash timed (identify), every run checked afterwards with a read_committed consumer",
                OursExactlyOnce::new);
        add("ours-exactly-once-gzip", Kind.OURS, true, "the worker path given the file gzip-compressed: inflating "
                + "it into a plain copy timed with the rest, every run checked as above",
                () -> new OursExactlyOnce(CompressedInput.Format.GZIP));
        add("ours-exactly-once-zip", Kind.OURS, true, "the worker path given the file as the one file of a zip "
                + "archive: inflating it into a plain copy timed with the rest, every run checked as above",
                () -> new OursExactlyOnce(CompressedInput.Format.ZIP));
    }

    private static Strategy woodstoxJaxbJson() {
        // One encoder per strategy: it reuses its buffer, and the strategy runs on one thread.
        JsonRecordEncoder encoder = new JsonRecordEncoder();
        return new CursorJaxb(WstxInputFactory::new, p -> encoder.encode(p).length);
    }

    public static Entry get(String name) {
        Entry e = ALL.get(name);
        if (e == null) {
            throw new IllegalArgumentException("unknown strategy " + name + "; known: " + String.join(", ", ALL.keySet()));
        }
        return e;
    }

    public static List<Entry> all() {
        return List.copyOf(ALL.values());
    }
}
