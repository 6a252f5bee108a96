package io.xmlingest.bench;

import io.xmlingest.app.kafka.EmbeddedKafkaBroker;
import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.page.Page;
import io.xmlingest.core.pipeline.FileIdentity;
import io.xmlingest.core.pipeline.FileJob;
import io.xmlingest.core.pipeline.FileOutcome;
import io.xmlingest.core.pipeline.FileSummary;
import io.xmlingest.core.pipeline.PhaseTimes;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.pipeline.KafkaSession;
import io.xmlingest.core.pipeline.StepTimes;
import io.xmlingest.core.pipeline.TransactionalIngestion;
import io.xmlingest.core.publish.PagePublisher;
import io.xmlingest.core.split.CapturedRecord;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * CPU time per record of each stage, in one JVM: what the issue-6 work was steered by. Wall time
 * on a shared 2-core machine swings with everyone else's load; CPU time per record moves far less,
 * so it tells whether a change made the work cheaper, and the variants say where the work is.
 *
 * <pre>
 * java [-XX:+UseParallelGC] -cp bench/target/bench.jar io.xmlingest.bench.CpuPerRecord FILE [REPS] [key=value ...]
 * </pre>
 *
 * Variants: {@code study} (Woodstox cursor + JAXB + JSON, one thread), {@code capture} (our
 * splitter copying each record's events), {@code sequential} (copy, strict bind and JSON on one
 * thread), {@code pipeline} (the ingest pipeline with its threads as the settings place them,
 * {@code bind.on=reader} or {@code binders}, pages dropped; it also prints each phase's time per
 * record) and {@code worker} (the exactly-once path into a broker started in this JVM, so its CPU
 * counts too). Settings given as key=value go to the pipeline and the worker (for example
 * {@code bind.threads=1}); {@code only=worker,pipeline} picks variants. Each variant runs once to
 * warm up, then REPS times (default 3); the median is printed.
 *
 * <p>The variants of {@link SplitCeilings}, which run only when named in {@code only=}: {@code reparse}
 * and {@code replay} (binder threads parsing each record's bytes again, or replaying its copy, no
 * Kafka), and {@code ceiling} (the study's work split three ways, each into Kafka: a broker at
 * {@code bootstrap=host:port}, or one started in this JVM), {@code bindonreader} (our splitter and
 * strict binder on the reading thread, JSON on another; {@code bindonreaderkafka} is the same into
 * Kafka, alone in its JVM) and {@code parsebind} (the reading thread's
 * work alone, three ways, twice over). {@code bind.threads} sets their binder threads (default 2).
 * {@code distance} (also only when named) is {@code sequential} with each copy bound 64 or 2,000
 * records after it was made; {@code parsebind1} with {@code way=study|drop|strict} runs one way of
 * {@code parsebind} alone in the JVM.
 */
public final class CpuPerRecord {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private interface Body {
        long run() throws Exception;
    }

    private CpuPerRecord() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int reps = args.length > 1 && !args[1].contains("=") ? Integer.parseInt(args[1]) : 3;
        Map<String, String> settings = new HashMap<>();
        List<String> only = null;
        for (String a : Arrays.copyOfRange(args, 1, args.length)) {
            if (a.startsWith("only=")) {
                only = List.of(a.substring(5).split(","));
            } else if (a.contains("=")) {
                String[] kv = a.split("=", 2);
                settings.put(kv[0], kv[1]);
            }
        }
        System.out.printf(Locale.ROOT, "%s, %s, %d counted runs%n", file.getFileName(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), reps);
        JAXBContext context = JAXBContext.newInstance(Person.class);
        if (only == null || only.contains("study")) {
            time("study", reps, () -> study(file, context));
        }
        if (only == null || only.contains("capture")) {
            time("capture", reps, () -> {
                long n = 0;
                try (StaxRecordSplitter s = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
                    while (s.next()) {
                        s.resumePoint();
                        s.capture();
                        n++;
                    }
                }
                return n;
            });
        }
        if (only == null || only.contains("sequential")) {
            time("sequential", reps, () -> {
                long n = 0;
                JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class);
                JsonRecordEncoder json = new JsonRecordEncoder();
                try (StaxRecordSplitter s = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
                    while (s.next()) {
                        json.encode(binder.bind(s.capture().reader(), ErrorLocation.ofFile(file.toString())));
                        n++;
                    }
                }
                return n;
            });
        }
        if (only != null && only.contains("distance")) {
            for (int distance : new int[] {64, 2000}) {
                time("distance " + distance + ": copy " + distance + " records, then bind and serialize them", reps,
                        () -> boundBehind(file, context, distance));
            }
        }
        int threads = Integer.parseInt(settings.getOrDefault(IngestSettings.BIND_THREADS.key(), "2"));
        if (only != null && only.contains("reparse")) {
            time("reparse: binder threads parse each record's bytes again (" + threads + ")", reps,
                    () -> SplitCeilings.reparse(file, context, threads, SplitCeilings.Binding.STRICT, null));
        }
        if (only != null && only.contains("replay")) {
            time("replay: binder threads replay each record's copy (" + threads + ")", reps,
                    () -> SplitCeilings.replay(file, context, threads));
        }
        if (only != null && only.contains("parsebind1")) {
            // One way only, so that JAXB's call sites see one reader class, as in the worker.
            String way = settings.getOrDefault("way", "strict");
            SplitCeilings.Binding binding = switch (way) {
                case "study" -> null;
                case "drop" -> SplitCeilings.Binding.LENIENT;
                case "strict" -> SplitCeilings.Binding.STRICT;
                default -> throw new IllegalArgumentException("way=study|drop|strict, not " + way);
            };
            time("parse and bind, one thread, only this way in the JVM: " + way, reps,
                    () -> SplitCeilings.parseAndBind(file, context, binding));
        }
        if (only != null && only.contains("parsebind")) {
            for (int i = 0; i < 2; i++) {
                time("parse and bind, one thread: the study's cursor and unmarshaller", reps,
                        () -> SplitCeilings.parseAndBind(file, context, null));
                time("parse and bind, one thread: our splitter, binder dropping unmapped content", reps,
                        () -> SplitCeilings.parseAndBind(file, context, SplitCeilings.Binding.LENIENT));
                time("parse and bind, one thread: our splitter, strict binder", reps,
                        () -> SplitCeilings.parseAndBind(file, context, SplitCeilings.Binding.STRICT));
            }
        }
        if (only != null && only.contains("bindonreader")) {
            time("bind on the reading thread, JSON on another", reps, () -> SplitCeilings.bindOnReader(file, context, null));
        }
        if (only != null && only.contains("bindonreaderkafka")) {
            // Alone in its JVM, as the worker is: in ceiling it shares JAXB's call sites with the study's variants.
            String bootstrap = settings.get("bootstrap");
            try (EmbeddedKafkaBroker broker = brokerUnless(bootstrap);
                 KafkaSink sink = new KafkaSink(broker == null ? bootstrap : broker.bootstrapServers())) {
                time("strict: our splitter and strict binder on one thread, JSON and sends on another, alone", reps,
                        () -> SplitCeilings.bindOnReader(file, context, sink));
            }
        }
        if (only != null && only.contains("ceiling")) {
            ceilings(file, context, reps, threads, settings.get("bootstrap"));
        }
        Map<String, String> base = new HashMap<>(settings);
        base.remove("bootstrap");
        base.remove("way");
        base.put(IngestSettings.TOPIC.key(), "cpu");
        if (only == null || only.contains("pipeline")) {
            IngestConfig config = IngestConfig.of(IngestSettings.ALL, base);
            PagePublisher dropping = new PagePublisher() {
                @Override
                public CompletableFuture<Page> publish(Page page) {
                    return CompletableFuture.completedFuture(page);
                }

                @Override
                public void close() {
                }
            };
            time("pipeline " + settings, reps, () -> {
                FileSummary summary = IngestionPipeline.create(config, dropping, IngestListener.NONE).ingest(file);
                PhaseTimes p = summary.phases();
                double n = summary.records();
                // Summed over the threads that did each: with bind.on=reader, scan plus bind is the reading thread's.
                System.out.printf(Locale.ROOT, "      per record: scan %.2f us, bind %.2f, serialize %.2f%n",
                        p.scanNanos() / n / 1000, p.bindNanos() / n / 1000, p.serializeNanos() / n / 1000);
                return summary.records();
            });
        }
        if (only == null || only.contains("worker")) {
            String elsewhere = settings.get("bootstrap");
            try (EmbeddedKafkaBroker broker = brokerUnless(elsewhere)) {
                String fileId = FileIdentity.sha256(file);
                long bytes = Files.size(file);
                String bootstrap = broker == null ? elsewhere : broker.bootstrapServers();
                time("worker " + base + (broker == null ? " (broker elsewhere)" : " (broker in this JVM)"), reps, () -> {
                    Map<String, String> m = new HashMap<>(base);
                    m.put(IngestSettings.TOPIC.key(), "cpu-" + UUID.randomUUID());
                    m.put(IngestSettings.BOOTSTRAP_SERVERS.key(), bootstrap);
                    IngestConfig config = IngestConfig.of(IngestSettings.ALL, m);
                    TransactionalIngestion ingestion = new TransactionalIngestion(config, IngestionPipeline.model(config),
                            "cpu");
                    try (KafkaSession session = KafkaSession.open(config, ingestion.topics(), "cpu-" + UUID.randomUUID(),
                            () -> false, t -> { }, StepTimes.NONE)) {
                        FileOutcome o = ingestion.ingest(new FileJob(file, file.getFileName().toString(), fileId, bytes,
                                null), session.publisher(), IngestListener.NONE, () -> false);
                        return o.checkpoint().records();
                    }
                });
            }
        }
    }

    /** A broker started in this JVM, or null when one runs elsewhere at {@code bootstrap}. */
    private static EmbeddedKafkaBroker brokerUnless(String bootstrap) throws Exception {
        return bootstrap != null ? null
                : EmbeddedKafkaBroker.start(Files.createTempDirectory("cpu-kafka"), "127.0.0.1", 0);
    }

    /** The study's work split over threads into Kafka, with none of the worker's checks or transactions. */
    private static void ceilings(Path file, JAXBContext context, int reps, int threads, String bootstrap)
            throws Exception {
        EmbeddedKafkaBroker broker = brokerUnless(bootstrap);
        String where = broker == null ? " (broker elsewhere)" : " (broker in this JVM)";
        try (KafkaSink sink = new KafkaSink(broker == null ? bootstrap : broker.bootstrapServers())) {
            time("ceiling: lenient reparse on " + threads + " binder threads, into Kafka" + where, reps,
                    () -> SplitCeilings.reparse(file, context, threads, SplitCeilings.Binding.LENIENT, sink));
            time("ceiling: the study on one thread, sends on another" + where, reps,
                    () -> SplitCeilings.studyPipelined(file, context, sink, false));
            time("ceiling: the study's parse and bind on one thread, JSON and sends on another" + where, reps,
                    () -> SplitCeilings.studyPipelined(file, context, sink, true));
            time("strict: our splitter and strict binder on one thread, JSON and sends on another" + where, reps,
                    () -> SplitCeilings.bindOnReader(file, context, sink));
        } finally {
            if (broker != null) {
                broker.close();
            }
        }
    }

    /**
     * The {@code sequential} variant with each record bound {@code distance} records after its copy
     * was made, on one thread: how far behind the reader a binder may fall before the copy has left
     * the caches.
     */
    private static long boundBehind(Path file, JAXBContext context, int distance) throws Exception {
        JaxbRecordBinder<Person> binder = new JaxbRecordBinder<>(context, Person.class);
        JsonRecordEncoder json = new JsonRecordEncoder();
        ErrorLocation where = ErrorLocation.ofFile(file.toString());
        CapturedRecord[] copies = new CapturedRecord[distance];
        long n = 0;
        try (StaxRecordSplitter s = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            int k;
            do {
                k = 0;
                while (k < distance && s.next()) {
                    copies[k++] = s.capture();
                }
                for (int i = 0; i < k; i++) {
                    json.encode(binder.bind(copies[i].reader(), where));
                    copies[i] = null;
                    n++;
                }
            } while (k == distance);
        }
        return n;
    }

    private static long study(Path file, JAXBContext context) throws Exception {
        JsonRecordEncoder json = new JsonRecordEncoder();
        return SplitCeilings.studyLoop(file, context, json::encode);
    }

    private static void time(String name, int reps, Body body) throws Exception {
        body.run();
        List<double[]> runs = new ArrayList<>();
        long n = 0;
        for (int i = 0; i < reps; i++) {
            long cpu0 = OS.getProcessCpuTime();
            long jit0 = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            long t0 = System.nanoTime();
            n = body.run();
            runs.add(new double[] {(System.nanoTime() - t0) / 1e6, (OS.getProcessCpuTime() - cpu0) / 1e6});
            System.out.printf(Locale.ROOT, "    run %d: CPU %.2f us/record, wall %.0f ms, JIT compiling %d ms%n", i + 1,
                    runs.get(i)[1] * 1000 / n, runs.get(i)[0],
                    ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0);
        }
        runs.sort((a, b) -> Double.compare(a[1], b[1]));
        double[] median = runs.get(reps / 2);
        System.out.printf(Locale.ROOT, "%-60s %,d records: CPU %.2f us/record, wall %.0f ms (%,.0f records/s)%n",
                name, n, median[1] * 1000 / n, median[0], n / median[0] * 1000);
    }
}
