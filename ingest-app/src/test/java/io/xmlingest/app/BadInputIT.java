package io.xmlingest.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.xmlingest.app.cli.ExitCodes;
import io.xmlingest.app.cli.Main;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad records and bad files against a real broker: nothing invalid published, nothing valid lost, a clear exit code. */
class BadInputIT {

    @TempDir
    Path dir;

    static String person(long id, String salary) {
        return "<person id=\"" + id + "\"><firstName>F</firstName><lastName>L</lastName>"
                + "<email>f@example.com</email><birthDate>1970-01-01</birthDate><active>true</active>"
                + "<salary>" + salary + "</salary><phone type=\"home\">+1234567</phone><address><street>s</street>"
                + "<city>c</city><postalCode>12345</postalCode><country>DE</country></address></person>\n";
    }

    private Path file(String name, String body) throws Exception {
        return Files.writeString(dir.resolve(name), "<persons xmlns=\"urn:xmlingest:sample:persons\">\n" + body);
    }

    @Test
    void rejectedRecordsAreNotPublishedAndTheRestAre() throws Exception {
        Path f = file("some-bad.xml", person(1, "1.00") + person(2, "ten") + person(3, "3.00") + "</persons>\n");
        String topic = TestBroker.uniqueTopic("bad-records");
        int exit = Main.run("ingest", f.toString(), "--topic", topic, "--bootstrap-servers", TestBroker.bootstrapServers());
        assertThat(exit).isEqualTo(ExitCodes.RECORDS_REJECTED);
        List<ConsumerRecord<byte[], byte[]>> records = TestBroker.readCommitted(TestBroker.bootstrapServers(), topic);
        assertThat(records).extracting(r -> new String(r.key(), StandardCharsets.UTF_8)).containsExactlyInAnyOrder("1", "3");
    }

    /**
     * Kafka refusing what the settings ask of it names the setting to change: before, a replication
     * factor the cluster cannot reach was reported as the topic not becoming ready (naming
     * topic.ready.timeout.ms), and a host that does not resolve as a stack trace with exit 1.
     */
    @Test
    void whatKafkaRefusesNamesTheSettingThatAskedForIt() throws Exception {
        Path f = file("few.xml", person(1, "1.00") + "</persons>\n");
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        int factor;
        int dns;
        try {
            System.setErr(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
            factor = Main.run("ingest", f.toString(), "--topic", TestBroker.uniqueTopic("factor"), "--bootstrap-servers",
                    TestBroker.bootstrapServers(), "-s", "topic.replication.factor=5");
            dns = Main.run("ingest", f.toString(), "--topic", "t", "--bootstrap-servers", "no-such-host.invalid:9092");
        } finally {
            System.setErr(err);
        }
        String said = printed.toString(StandardCharsets.UTF_8);
        assertThat(factor).isEqualTo(ExitCodes.KAFKA_UNAVAILABLE);
        assertThat(said).containsPattern("error: Kafka at \\S+: cannot create topic factor-\\S+ with replication factor 5: .*"
                + "\\(setting: topic.replication.factor\\)");
        assertThat(dns).isEqualTo(ExitCodes.KAFKA_UNAVAILABLE);
        assertThat(said).contains("error: no host of kafka.bootstrap.servers resolves to an address (Kafka's client: "
                + "No resolvable bootstrap urls given in bootstrap.servers) (setting: kafka.bootstrap.servers)")
                .doesNotContain("\tat ");
    }

    @Test
    void aFileThatBreaksMidWayFailsAndKeepsWhatWasPublishedBefore() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 1; i <= 25; i++) {
            body.append(person(i, "1.00"));
        }
        body.append("<person id=\"26\"><firstName>broken</lastName>\n");
        Path f = file("broken.xml", body.toString());
        String topic = TestBroker.uniqueTopic("broken");
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
            exit = Main.run("ingest", f.toString(), "--topic", topic, "--bootstrap-servers", TestBroker.bootstrapServers(),
                    "-s", "page.max.records=10");
        } finally {
            System.setOut(out);
        }
        assertThat(exit).isEqualTo(ExitCodes.FILE_FAILED);
        // The line says what of the file Kafka has: before, it gave the fault alone.
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(": FAILED: XML is not readable")
                .contains("; 20 records of it were acknowledged by Kafka before it failed (the highest record index 19), "
                        + "0 rejected");
        // Pages of 10: records 0-9 and 10-19 were complete pages before the fault; 20-24 never formed a page.
        List<ConsumerRecord<byte[], byte[]>> records = TestBroker.readCommitted(TestBroker.bootstrapServers(), topic);
        assertThat(records).hasSize(20);
    }

    @Test
    void theTotalCountsWhatFailedFilesPublishedAndTheSameContentTwiceIsNamed() throws Exception {
        StringBuilder body = new StringBuilder();
        for (int i = 1; i <= 25; i++) {
            body.append(person(i, "1.00"));
        }
        Path broken = file("broken2.xml", body + "<person id=\"26\"><firstName>broken</lastName>\n");
        Path good = file("good.xml", person(1, "1.00") + person(2, "2.00") + "</persons>\n");
        Path again = Files.copy(good, good.resolveSibling("again.xml"));
        Path none = Files.writeString(good.resolveSibling("none.xml"), "<other/>\n");
        String topic = TestBroker.uniqueTopic("total");
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        try {
            System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
            Main.run("ingest", broken.toString(), good.toString(), again.toString(), none.toString(), "--topic", topic,
                    "--bootstrap-servers", TestBroker.bootstrapServers(), "-s", "page.max.records=10");
        } finally {
            System.setOut(out);
        }
        String lines = printed.toString(StandardCharsets.UTF_8);
        // Before, the total left out the 20 records the failed file had published: 4 against 24 in the topic.
        assertThat(lines).contains("total: 4 files, 1 failed, 24 records published, 0 rejected");
        assertThat(TestBroker.readCommitted(TestBroker.bootstrapServers(), topic)).hasSize(24);
        // ingest publishes what it is given, and says so when it is given the same content twice.
        assertThat(lines).contains(again + ": its content is that of " + good + " (file id ")
                .contains("and its records were published again");
        assertThat(lines).contains("none.xml: 0 records").contains("it holds no {urn:xmlingest:sample:persons}person "
                + "element (setting record.element)");
    }

    @Test
    void anInvalidSettingStopsBeforeAnythingRuns() throws Exception {
        Path f = file("ok.xml", person(1, "1.00") + "</persons>\n");
        int exit = Main.run("ingest", f.toString(), "--topic", "never-created", "--bootstrap-servers",
                TestBroker.bootstrapServers(), "-s", "page.max.records=0");
        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        int unknown = Main.run("ingest", f.toString(), "--topic", "never-created", "--bootstrap-servers",
                TestBroker.bootstrapServers(), "-s", "page.max.recs=10");
        assertThat(unknown).isEqualTo(ExitCodes.USAGE);
    }
}
