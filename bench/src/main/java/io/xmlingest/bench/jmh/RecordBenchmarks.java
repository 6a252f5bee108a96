package io.xmlingest.bench.jmh;

import io.xmlingest.core.bind.JaxbRecordBinder;
import io.xmlingest.core.encode.JsonRecordEncoder;
import io.xmlingest.core.error.ErrorLocation;
import io.xmlingest.core.split.StaxRecordSplitter;
import io.xmlingest.core.split.XmlLimits;
import io.xmlingest.datagen.DatagenCommand;
import io.xmlingest.datagen.PersonFactory;
import io.xmlingest.sample.persons.Person;
import jakarta.xml.bind.JAXBContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-record costs in isolation: binding persons from XML (splitter + strict binder over a
 * document of {@value #RECORDS} records, reported per record, so parser set-up is spread thin)
 * and serializing one bound person to JSON. Run with
 * {@code java -cp bench/target/bench.jar org.openjdk.jmh.Main RecordBenchmarks}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecordBenchmarks {

    static final int RECORDS = 1000;

    private byte[] document;
    private JaxbRecordBinder<Person> binder;
    private JsonRecordEncoder encoder;
    private Person person;
    private ErrorLocation where;

    @Setup
    public void setUp() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DatagenCommand.write(out, RECORDS, 42, DatagenCommand.Progress.NONE);
        document = out.toByteArray();
        binder = new JaxbRecordBinder<>(JAXBContext.newInstance(Person.class), Person.class);
        encoder = new JsonRecordEncoder();
        person = new PersonFactory(42).next(1);
        where = ErrorLocation.ofFile("jmh.xml");
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long bind() {
        long sum = 0;
        try (StaxRecordSplitter s = new StaxRecordSplitter(new ByteArrayInputStream(document), "jmh.xml",
                DatagenCommand.RECORD, XmlLimits.DEFAULTS)) {
            while (s.next()) {
                sum += binder.bind(s.record(), where).getId();
            }
        }
        return sum;
    }

    @Benchmark
    public byte[] serialize() {
        return encoder.encode(person);
    }
}
