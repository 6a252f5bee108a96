package io.xmlingest.bench;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.split.CapturedRecord;
import io.xmlingest.core.split.RawRecord;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.Unmarshaller;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.codehaus.stax2.XMLInputFactory2;
import org.codehaus.stax2.io.Stax2ByteArraySource;

/**
 * Other ways of splitting the study's work over threads, measured on the same file as the worker
 * (issue 6). The ones into Kafka leave out everything the worker adds to the study (strict binding,
 * record order, error positions, resume points, transactions), so their rate bounds what any design
 * built on Woodstox, JAXB and one Kafka message per record reaches on this machine.
 *
 * <p>The variants:
 * <ul>
 * <li>{@link #reparse}: one thread only finds each record's bytes (our splitter, skipping the
 * record); binder threads parse those bytes again with their own Woodstox reader, bind and encode.
 * The second direction; nothing but offsets crosses threads.</li>
 * <li>{@link #replay}: the worker's design without its paging and ordering: one thread copies each
 * record's events, binder threads replay the copies.</li>
 * <li>{@link #studyPipelined}: the study's own one-thread loop, with the sends (and, if asked, the
 * JSON encoding) on a second thread: the first direction at its simplest.</li>
 * </ul>
 */
final class SplitCeilings {

    /** How binder threads bind: the worker's strict binder, or content the model lacks dropped as plain JAXB does. */
    enum Binding {
        STRICT, LENIENT;

        JaxbRecordBinder<Person> binder(JAXBContext context) {
            return new JaxbRecordBinder<>(context, Person.class, null, this == LENIENT);
        }
    }

    private static final int BATCH = 64;

    private SplitCeilings() {
    }

    /**
     * The reading thread hands on each record's byte range; binder threads parse it again, wrapped in
     * a start tag that declares the file's default namespace, as the record's ancestors do.
     *
     * @param sink where the values go, or null to drop them
     */
    static long reparse(Path file, JAXBContext context, int threads, Binding binding, KafkaSink sink) throws Exception {
        byte[] open = ("<w xmlns='" + DatagenCommand.RECORD.getNamespaceURI() + "'>").getBytes(StandardCharsets.UTF_8);
        byte[] close = "</w>".getBytes(StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(file)) {
            // One mapping: the bench's files are far under the 2 GiB a mapping can hold.
            ByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            Workers<long[]> binders = new Workers<>(threads, () -> {
                ByteBuffer bytes = mapped.duplicate();
                XMLInputFactory2 factory = new com.ctc.wstx.stax.WstxInputFactory();
                JaxbRecordBinder<Person> binder = binding.binder(context);
                JsonRecordEncoder json = new JsonRecordEncoder();
                ErrorLocation where = ErrorLocation.ofFile(file.toString());
                byte[][] buffer = {Arrays.copyOf(open, 1 << 16)};
                return ranges -> {
                    for (int i = 0; i < ranges.length; i += 3) {
                        int length = (int) ranges[i + 1];
                        int total = open.length + length + close.length;
                        if (total > buffer[0].length) {
                            buffer[0] = Arrays.copyOf(buffer[0], total);
                        }
                        byte[] b = buffer[0];
                        bytes.get((int) ranges[i], b, open.length, length);
                        System.arraycopy(close, 0, b, open.length + length, close.length);
                        try {
                            XMLStreamReader r = factory.createXMLStreamReader(new Stax2ByteArraySource(b, 0, total));
                            r.nextTag();
                            r.nextTag();
                            byte[] value = json.encode(binder.bind(r, where));
                            r.close();
                            if (sink != null) {
                                sink.send(ranges[i + 2], value);
                            }
                        } catch (javax.xml.stream.XMLStreamException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                };
            });
            long n = 0;
            try (StaxRecordSplitter splitter = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
                long[] ranges = new long[3 * BATCH];
                int k = 0;
                while (splitter.next()) {
                    RawRecord raw = splitter.raw(0);
                    ranges[k++] = raw.byteOffset();
                    ranges[k++] = raw.byteLength();
                    ranges[k++] = n++;
                    if (k == ranges.length) {
                        binders.submit(ranges);
                        ranges = new long[3 * BATCH];
                        k = 0;
                    }
                }
                binders.submit(Arrays.copyOf(ranges, k));
            }
            binders.finish();
            if (sink != null) {
                sink.awaitAll(n);
            }
            return n;
        }
    }

    /** The reading thread copies each record's events, as the worker's does; binder threads replay them strictly. */
    static long replay(Path file, JAXBContext context, int threads) throws Exception {
        Workers<CapturedRecord[]> binders = new Workers<>(threads, () -> {
            JaxbRecordBinder<Person> binder = Binding.STRICT.binder(context);
            JsonRecordEncoder json = new JsonRecordEncoder();
            ErrorLocation where = ErrorLocation.ofFile(file.toString());
            return copies -> {
                for (CapturedRecord copy : copies) {
                    json.encode(binder.bind(copy.reader(), where));
                }
            };
        });
        long n = 0;
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            CapturedRecord[] copies = new CapturedRecord[BATCH];
            int k = 0;
            while (splitter.next()) {
                copies[k++] = splitter.capture();
                n++;
                if (k == copies.length) {
                    binders.submit(copies);
                    copies = new CapturedRecord[BATCH];
                    k = 0;
                }
            }
            binders.submit(Arrays.copyOf(copies, k));
        }
        binders.finish();
        return n;
    }

    /**
     * The study's loop (one Woodstox cursor over the file, a plain unmarshaller) on this thread, and on
     * another the sends, with the JSON encoding too when {@code encodeOnSender}.
     */
    static long studyPipelined(Path file, JAXBContext context, KafkaSink sink, boolean encodeOnSender)
            throws Exception {
        JsonRecordEncoder json = new JsonRecordEncoder();
        Batches sender = new Batches(() -> {
            JsonRecordEncoder senderJson = new JsonRecordEncoder();
            long[] index = {0};
            return v -> sink.send(index[0]++, encodeOnSender ? senderJson.encode(v) : (byte[]) v);
        });
        long n = studyLoop(file, context, p -> sender.add(encodeOnSender ? p : json.encode(p)));
        sender.finish();
        sink.awaitAll(n);
        return n;
    }

    /**
     * Our splitter's cursor and the strict binder on this thread, with no copy between them; JSON and
     * the sends (when {@code sink} is not null) on another.
     */
    static long bindOnReader(Path file, JAXBContext context, KafkaSink sink) throws Exception {
        Batches encoder = new Batches(() -> {
            JsonRecordEncoder json = new JsonRecordEncoder();
            long[] index = {0};
            return v -> {
                byte[] value = json.encode(v);
                if (sink != null) {
                    sink.send(index[0]++, value);
                }
            };
        });
        JaxbRecordBinder<Person> binder = Binding.STRICT.binder(context);
        ErrorLocation where = ErrorLocation.ofFile(file.toString());
        long n = 0;
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            while (splitter.next()) {
                encoder.add(binder.bind(splitter.record(), where));
                n++;
            }
        }
        encoder.finish();
        if (sink != null) {
            sink.awaitAll(n);
        }
        return n;
    }

    /**
     * What the reading thread of {@link #bindOnReader} does, alone on this thread and without JSON:
     * our splitter's cursor into the binder given, or with {@code binding} null the study's plain
     * Woodstox cursor and unmarshaller. Comparing the three tells the splitter's share from the strict
     * checks'.
     */
    static long parseAndBind(Path file, JAXBContext context, Binding binding) throws Exception {
        if (binding == null) {
            return studyLoop(file, context, p -> { });
        }
        long n = 0;
        JaxbRecordBinder<Person> binder = binding.binder(context);
        ErrorLocation where = ErrorLocation.ofFile(file.toString());
        try (StaxRecordSplitter splitter = StaxRecordSplitter.open(file, DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            while (splitter.next()) {
                binder.bind(splitter.record(), where);
                n++;
            }
        }
        return n;
    }

    /** What is done with each record the study's loop binds. */
    interface Bound {
        void accept(Person person) throws Exception;
    }

    /**
     * The study's loop: one Woodstox cursor over the file, each record element unmarshalled in place by
     * a plain unmarshaller; returns how many records it bound.
     */
    static long studyLoop(Path file, JAXBContext context, Bound each) throws Exception {
        Unmarshaller unmarshaller = context.createUnmarshaller();
        long n = 0;
        try (InputStream in = Files.newInputStream(file)) {
            XMLStreamReader r = new com.ctc.wstx.stax.WstxInputFactory().createXMLStreamReader(in);
            int event = r.next();
            while (event != XMLStreamConstants.END_DOCUMENT) {
                if (event == XMLStreamConstants.START_ELEMENT
                        && DatagenCommand.RECORD.getLocalPart().equals(r.getLocalName())) {
                    each.accept(unmarshaller.unmarshal(r, Person.class).getValue());
                    n++;
                    event = r.getEventType();
                } else {
                    event = r.next();
                }
            }
        }
        return n;
    }

    /** Items handed to one worker thread in batches of {@value #BATCH}. */
    private static final class Batches {

        private final Workers<Object[]> worker;
        private Object[] batch = new Object[BATCH];
        private int size;

        /** @param each makes, on the worker thread, what it does with one item */
        Batches(Supplier<Consumer<Object>> each) {
            worker = new Workers<>(1, () -> {
                Consumer<Object> one = each.get();
                return items -> {
                    for (Object item : items) {
                        one.accept(item);
                    }
                };
            });
        }

        void add(Object item) throws InterruptedException {
            batch[size++] = item;
            if (size == BATCH) {
                worker.submit(batch);
                batch = new Object[BATCH];
                size = 0;
            }
        }

        void finish() throws InterruptedException {
            worker.submit(Arrays.copyOf(batch, size));
            worker.finish();
        }
    }

    /**
     * Threads that each take batches off one bounded queue. A thread's failure ends the run: the
     * submitting thread would otherwise wait forever on a full queue.
     */
    static final class Workers<T> {

        private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(BATCH);
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private static final Object END = new Object();

        /** @param body makes, on each worker thread, what that thread does with a batch */
        Workers(int count, Supplier<Consumer<T>> body) {
            for (int i = 0; i < count; i++) {
                Thread t = new Thread(() -> run(body), "ceiling-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        @SuppressWarnings("unchecked")
        private void run(Supplier<Consumer<T>> body) {
            try {
                Consumer<T> work = body.get();
                for (Object batch = queue.take(); batch != END; batch = queue.take()) {
                    work.accept((T) batch);
                }
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        }

        void submit(T batch) throws InterruptedException {
            while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
                rethrow();
            }
        }

        /** Waits for every batch to be done; throws the first worker's failure. */
        void finish() throws InterruptedException {
            for (int i = 0; i < threads.size(); i++) {
                while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
                    rethrow();
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            rethrow();
        }

        private void rethrow() {
            Throwable e = failure.get();
            if (e != null) {
                throw new IllegalStateException("a worker thread failed: " + e, e);
            }
        }
    }
}
