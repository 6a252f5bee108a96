package io.xmlingest.datagen;

import io.xmlingest.core.error.IoProblems;
import io.xmlingest.sample.persons.Person;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import java.util.concurrent.Callable;
import javax.xml.namespace.QName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code java -jar datagen.jar --records N [--out FILE] [--seed S]}: writes a persons file. */
@Command(name = "datagen", mixinStandardHelpOptions = true, versionProvider = DatagenCommand.VersionText.class,
        description = "Writes a persons XML file of realistic, schema-valid records. The same seed gives the same bytes.",
        footer = {"", "Examples:", "  java -jar datagen/target/datagen.jar --records 1000000",
                "  java -jar datagen/target/datagen.jar --records 10000 --seed 7 \\",
                "      --out persons-10k.xml",
                "  java -jar datagen/target/datagen.jar --records 50000 --invalid-rate 0.01",
                "      (about 500 dead letters; a file fails past file.max.rejected.records)"})
public final class DatagenCommand implements Callable<Integer> {

    /** The build's version, not a string someone has to remember to change. */
    static final class VersionText implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"xmlingest datagen " + io.xmlingest.core.Version.get()};
        }
    }

    public static final String NAMESPACE = "urn:xmlingest:sample:persons";
    public static final QName ROOT = new QName(NAMESPACE, "persons");
    public static final QName RECORD = new QName(NAMESPACE, "person");

    @Spec
    CommandSpec spec;

    @Option(names = "--records", required = true, description = "How many person records to write.")
    long records;

    @Option(names = "--out", description = "The file to write (default: persons-<records>.xml); '-' for standard "
            + "output. A file is written as FILE.part and renamed when complete (deleted if the write fails); a pipe or "
            + "device is written as is.")
    Path out;

    @Option(names = "--gzip", description = "Compress what is written with gzip, as exports often arrive; the "
            + "default file name then ends in .xml.gz. The worker and ingest inflate such files themselves.")
    boolean gzip;

    @Option(names = "--zip", description = "Write a zip archive holding the file, as registries often publish "
            + "theirs; the default file name then ends in .xml.zip. The worker and ingest inflate such archives "
            + "themselves.")
    boolean zip;

    @Option(names = "--seed", defaultValue = "42", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--invalid-rate", defaultValue = "0", paramLabel = "R",
            description = "About this fraction of the records (0 to 1) is written so that they do not bind, each with one "
                    + "of: text in a number, an impossible date, a missing or an unknown element, chosen by a hash of "
                    + "the seed and its index; the file stays well-formed (default: ${DEFAULT-VALUE}).")
    double invalidRate;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Show a progress bar when standard error is a terminal (default: on).")
    boolean progress;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new DatagenCommand());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            // A file or pipe that cannot be written is the user's to fix: one line, not a stack trace.
            String what = e instanceof WriteFailed ? e.getMessage() : "cannot write the records";
            commandLine.getErr().println("error: " + what + ": " + IoProblems.why(deepestIoProblem(e)));
            return 1;
        });
        return cli;
    }

    @Override
    public Integer call() throws IOException {
        if (records < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--records must not be negative");
        }
        if (!(invalidRate >= 0 && invalidRate <= 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--invalid-rate must be between 0 and 1");
        }
        if (gzip && zip) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--gzip and --zip: choose one");
        }
        Packing packing = gzip ? Packing.GZIP : zip ? Packing.ZIP : Packing.PLAIN;
        boolean toStdout = out != null && out.toString().equals("-");
        Path target = out != null ? out : Path.of("persons-" + records + ".xml" + packing.suffix);
        if (!toStdout && Files.isDirectory(target)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + target + " is a directory");
        }
        Path parent = target.toAbsolutePath().getParent();
        if (!toStdout && parent != null && !Files.isDirectory(parent)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--out " + target + ": " + parent
                    + (Files.exists(parent) ? " is not a directory" : " does not exist"));
        }
        // A link (/dev/stdout is one) or a pipe or device is written through: a .part renamed over it would replace it.
        boolean asIs = !toStdout && (Files.isSymbolicLink(target) || (Files.exists(target) && !Files.isRegularFile(target)));
        long started = System.nanoTime();
        Progress bar = new Progress(progress && System.console() != null, records, System.err);
        long written;
        long invalid;
        try {
            if (toStdout || asIs) {
                OutputStream raw = toStdout ? new FileOutputStream(FileDescriptor.out) : Files.newOutputStream(target);
                CountingOutputStream stream = new CountingOutputStream(new BufferedOutputStream(raw, 1 << 16));
                try (OutputStream sink = packing.wrap(stream, toStdout ? "persons-" + records + ".xml" : entryName(target))) {
                    invalid = write(sink, records, seed, invalidRate, bar);
                }
                written = stream.count;
            } else {
                invalid = generate(target, records, seed, invalidRate, packing, bar);
                written = Files.size(target);
            }
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            // Java's reasons name no file (No space left on device), or only the .part one written first.
            throw new WriteFailed("cannot write " + (toStdout ? "standard output" : asIs ? target
                    : target + " (written first as " + PartFile.of(target).getFileName() + ")"), e);
        }
        bar.done();
        double seconds = (System.nanoTime() - started) / 1e9;
        // Beside the records on standard output, the summary goes to the error stream.
        (toStdout || asIs ? System.err : System.out).printf(Locale.ROOT,
                "wrote %d records%s, %d bytes%s to %s in %.1f s (%.0f records/s)%n",
                records, invalidRate > 0 ? " (" + invalid + " invalid on purpose)" : "", written,
                packing.summary,
                toStdout ? "standard output" : target, seconds, records / Math.max(seconds, 1e-9));
        return 0;
    }

    /** JAXB wraps the writer's failure in an IOException of its own ("Error writing XML stream"): the reason is below. */
    private static Throwable deepestIoProblem(Throwable e) {
        Throwable deepest = e;
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof IOException) {
                deepest = t;
            }
        }
        return deepest;
    }

    /** The output could not be written; the message names it, the cause says why. */
    private static final class WriteFailed extends RuntimeException {
        WriteFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Counts what passes, for the summary of a stream whose size cannot be asked afterwards. */
    private static final class CountingOutputStream extends FilterOutputStream {
        long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }

    /** Writes {@code count} persons with ids 1..count; used by tests and the bench as well. */
    public static void write(OutputStream stream, long count, long seed, Progress progress) {
        write(stream, count, seed, 0, progress);
    }

    /**
     * Writes {@code count} persons with ids 1..count, the ones {@link #isInvalid} picks made
     * invalid; returns how many those were. Every other record is exactly what a rate of 0 writes.
     */
    public static long write(OutputStream stream, long count, long seed, double invalidRate, Progress progress) {
        PersonFactory factory = new PersonFactory(seed);
        long invalid = 0;
        try (RecordXmlWriter<Person> writer = new RecordXmlWriter<>(stream, ROOT, RECORD, Person.class)) {
            for (long i = 1; i <= count; i++) {
                Person person = factory.next(i);
                if (isInvalid(i - 1, seed, invalidRate)) {
                    writer.writeRaw(InvalidRecords.apply(InvalidRecords.fault(i - 1, seed), writer.toXml(person)));
                    invalid++;
                } else {
                    writer.write(person);
                }
                if ((i & 0x3FF) == 0) {
                    progress.update(i);
                }
            }
        }
        return invalid;
    }

    /** Whether record {@code index} (0-based) of a file written with this seed and rate is invalid. */
    public static boolean isInvalid(long index, long seed, double invalidRate) {
        return InvalidRecords.isInvalid(index, seed, invalidRate);
    }

    /** Writes a persons file of {@code count} records at {@code file}. */
    public static Path generate(Path file, long count, long seed) throws IOException {
        return generate(file, count, seed, 0);
    }

    /** Writes a persons file of {@code count} records at {@code file}, a fraction of them invalid. */
    public static Path generate(Path file, long count, long seed, double invalidRate) throws IOException {
        generate(file, count, seed, invalidRate, Packing.PLAIN, Progress.NONE);
        return file;
    }

    /** As {@link #generate(Path, long, long, double)}, gzip-compressed. */
    public static Path generateGzip(Path file, long count, long seed, double invalidRate) throws IOException {
        generate(file, count, seed, invalidRate, Packing.GZIP, Progress.NONE);
        return file;
    }

    /** The name of the one file in a zip archive: the archive's, less ".zip", ending in ".xml". */
    private static String entryName(Path archive) {
        String name = archive.getFileName().toString();
        String inner = name.endsWith(".zip") && name.length() > 4 ? name.substring(0, name.length() - 4) : name;
        return inner.endsWith(".xml") ? inner : inner + ".xml";
    }

    /** How what is written is packed. */
    private enum Packing {
        PLAIN("", ""), GZIP(".gz", " gzip-compressed"), ZIP(".zip", " in a zip archive");

        final String suffix;
        final String summary;

        private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2000, 1, 1, 0, 0);

        Packing(String suffix, String summary) {
            this.suffix = suffix;
            this.summary = summary;
        }

        /** The stream the records are written to; closing it ends the gzip member or the archive. */
        OutputStream wrap(OutputStream stream, String entry) throws IOException {
            switch (this) {
                case GZIP:
                    return new GZIPOutputStream(stream, 1 << 16);
                case ZIP:
                    ZipOutputStream zip = new ZipOutputStream(stream);
                    ZipEntry e = new ZipEntry(entry);
                    // A fixed time, in the archive's own local terms: the same seed gives the same bytes.
                    e.setTimeLocal(ENTRY_TIME);
                    zip.putNextEntry(e);
                    return zip;
                default:
                    return stream;
            }
        }
    }

    private static long generate(Path file, long count, long seed, double invalidRate, Packing packing, Progress progress)
            throws IOException {
        return PartFile.write(file, stream -> {
            try (OutputStream sink = packing.wrap(stream, entryName(file))) {
                return write(sink, count, seed, invalidRate, progress);
            }
        });
    }

    /** A one-line progress bar on a terminal; silent otherwise. */
    public static final class Progress {
        public static final Progress NONE = new Progress(false, 0, null);
        private final boolean enabled;
        private final long total;
        private final PrintStream out;
        private final long started = System.nanoTime();

        Progress(boolean enabled, long total, PrintStream out) {
            this.enabled = enabled && total > 0;
            this.total = total;
            this.out = out;
        }

        void update(long done) {
            if (!enabled) {
                return;
            }
            int width = 30;
            int filled = (int) (width * done / total);
            double rate = done / Math.max((System.nanoTime() - started) / 1e9, 1e-9);
            out.printf(Locale.ROOT, "\r[%s%s] %3d%% %d/%d records, %.0f records/s", "#".repeat(filled),
                    " ".repeat(width - filled), 100 * done / total, done, total, rate);
        }

        void done() {
            if (enabled) {
                update(total);
                out.println();
            }
        }
    }
}
