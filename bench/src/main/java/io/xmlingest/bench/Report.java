package io.xmlingest.bench;

import io.xmlingest.bench.strategy.Strategies;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Renders a bench run as Markdown: the full report, and the short section the README shows. */
public final class Report {
    private Report() {
    }

    static final List<String> CHARTS = List.of("throughput", "time", "heap", "phases");

    public static String machine() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return String.format(Locale.ROOT, "%d cores, %.0f GiB memory, %s %s (%s), %s %s",
                Runtime.getRuntime().availableProcessors(), os.getTotalMemorySize() / (double) (1L << 30),
                System.getProperty("java.vm.name"), System.getProperty("java.version"),
                System.getProperty("java.vendor"), System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /** Now, in UTC to the second: when a run started, as its report and results show it. */
    static String startedAt() {
        return java.time.ZonedDateTime.now(java.time.ZoneOffset.UTC).withNano(0).toString();
    }

    /** The 1-, 5- and 15-minute load averages: the machine is shared, and every figure moves with them. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (Exception e) {
            return "unknown";
        }
    }

    /** How the strategies took turns, when they did. */
    private static String rounds(Bench.Plan p) {
        return p.rounds() <= 1 ? "" : String.format(Locale.ROOT, ", in each of %d rounds in which the strategies took turns "
                + "(each forked again every round), %d counted runs in all", p.rounds(), p.rounds() * p.runs());
    }

    public static String full(Bench.Results r) {
        Bench.Plan p = r.plan();
        StringBuilder s = new StringBuilder("# xmlingest bench report\n\n");
        s.append(String.format(Locale.ROOT, "Started %s, took %.0f s. Machine: %s. Raw figures: results.json. Each strategy and size ran in a JVM "
                + "of its own with -Xmx%s and " + ForkedJvm.GC + ": %d warm-up run(s), then %d counted runs%s; times are the median (min, max) of "
                + "the counted runs.%n%n", r.startedAt(), r.seconds(), r.machine(), p.heap(), p.warmups(), p.runs(), rounds(p)));
        s.append("## Strategies\n\n| strategy | kind | what it does |\n|---|---|---|\n");
        for (Strategies.Entry e : p.strategies()) {
            s.append("| ").append(e.name()).append(" | ").append(e.kind().name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(e.description()).append(" |\n");
        }
        s.append("\nMemory: *peak heap* is the heap pools' peak usage (garbage included, so it grows with -Xmx for "
                + "allocation-heavy strategies); *live heap* is the largest heap still in use after a full garbage collection "
                + "(after a minor one the old generation still holds garbage; after any collection when no full one ran, "
                + "0 when none ran); *RSS* is the forked JVM's peak resident set from the kernel; *alloc/record* counts "
                + "bytes allocated by every thread of the JVM per record.\n");
        for (long size : p.sizes()) {
            List<Measurement> rows = r.measurements().stream().filter(m -> m.size() == size).toList();
            long bytes = rows.stream().mapToLong(Measurement::fileBytes).max().orElse(0);
            s.append(String.format(Locale.ROOT, "%n## %,d records (%.1f MB)%n%n", size, bytes / 1e6));
            s.append("| strategy | median s | min s | max s | records/s | MB/s | peak heap MB | live heap MB | RSS MB | alloc/record |\n");
            s.append("|---|---|---|---|---|---|---|---|---|---|\n");
            for (Measurement m : rows) {
                if (!m.ok()) {
                    s.append("| ").append(m.strategy()).append(" | ").append(m.status().name().toLowerCase(Locale.ROOT)
                            .replace('_', ' ')).append(": ").append(m.reason().replace("|", "\\|")).append(" | | | | | | | | |\n");
                    continue;
                }
                s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %,.0f | %.1f | %d | %d | %d | %,.0f B |%n",
                        m.strategy(), seconds(m.medianNanos()), seconds(m.minNanos()), seconds(m.maxNanos()), m.recordsPerSecond(),
                        m.megabytesPerSecond(), m.peakHeapUsed() >> 20, m.peakLiveHeap() >> 20, m.maxRss() >> 20,
                        m.allocatedPerRecord()));
            }
            phases(s, rows);
            verified(s, rows);
        }
        ratios(s, r);
        s.append(Issue6Targets.section(r));
        s.append(HeapScaling.section(r));
        if (!r.heapSearches().isEmpty()) {
            s.append("\n## Whole-document JAXB: the smallest heap that works\n\n");
            s.append("| records | smallest -Xmx that completed | largest -Xmx that failed | attempts |\n|---|---|---|---|\n");
            for (HeapSearch h : r.heapSearches()) {
                s.append(String.format(Locale.ROOT, "| %,d | %s | %s | %d |%n", h.size(),
                        h.smallestOk() < 0 ? "none up to " + h.largestFailed() + " MB" : h.smallestOk() + " MB",
                        h.largestFailed() == 0 ? "-" : h.largestFailed() + " MB", h.attempts()));
            }
        }
        s.append("\n## Charts\n\n");
        for (String chart : CHARTS) {
            s.append("![").append(chart).append("](").append(chart).append(".png)\n\n");
        }
        return s.toString();
    }

    private static void phases(StringBuilder s, List<Measurement> rows) {
        List<Measurement> withPhases = rows.stream().filter(m -> m.ok() && !m.phases().isEmpty()).toList();
        if (withPhases.isEmpty()) {
            return;
        }
        s.append("\nWhere ours spends its time (seconds, median run, from the pipeline's own timers):\n\n");
        s.append("| strategy | identify | scan | bind | serialize | publish |\n|---|---|---|---|---|---|\n");
        for (Measurement m : withPhases) {
            Map<String, Double> ph = m.phases();
            s.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f |%n", m.strategy(),
                    ph.get("identify"), ph.get("scan"), ph.get("bind"), ph.get("serialize"), ph.get("publish")));
        }
    }

    private static void verified(StringBuilder s, List<Measurement> rows) {
        for (Measurement m : rows) {
            if (m.ok() && m.verified() != null) {
                s.append("\n").append(m.strategy()).append(": every run, warm-ups included, was checked afterwards with a "
                        + "read_committed consumer; the last check found ").append(m.verified()).append(".\n");
            }
        }
    }

    private static void ratios(StringBuilder s, Bench.Results r) {
        List<Measurement> ours = r.measurements().stream()
                .filter(m -> m.ok() && Strategies.get(m.strategy()).kind() == Strategies.Kind.OURS).toList();
        if (ours.isEmpty()) {
            return;
        }
        s.append("\n## Ratios measured in this run\n\nRecords/s of ours divided by records/s of the other strategy "
                + "at the same size (above 1: ours is faster).\n\n| ours | vs | ");
        List<Long> sizes = r.plan().sizes();
        sizes.forEach(size -> s.append(String.format(Locale.ROOT, "%,d | ", size)));
        s.append("\n|---|---|").append("---|".repeat(sizes.size())).append('\n');
        for (Strategies.Entry mine : r.plan().strategies()) {
            if (mine.kind() != Strategies.Kind.OURS) {
                continue;
            }
            for (Strategies.Entry other : r.plan().strategies()) {
                if (other.name().equals(mine.name())) {
                    continue;
                }
                s.append("| ").append(mine.name()).append(" | ").append(other.name()).append(" | ");
                for (long size : sizes) {
                    s.append(ratio(r, mine.name(), other.name(), size).map(x -> String.format(Locale.ROOT, "%.2f", x))
                            .orElse("-")).append(" | ");
                }
                s.append('\n');
            }
        }
    }

    static Optional<Double> ratio(Bench.Results r, String a, String b, long size) {
        Optional<Measurement> x = find(r, a, size);
        Optional<Measurement> y = find(r, b, size);
        return x.isPresent() && y.isPresent() ? Optional.of(x.get().recordsPerSecond() / y.get().recordsPerSecond())
                : Optional.empty();
    }

    static Optional<Measurement> find(Bench.Results r, String strategy, long size) {
        return r.measurements().stream().filter(m -> m.ok() && m.size() == size && m.strategy().equals(strategy)).findFirst();
    }

    /** The README's performance figures: the largest size's table and the headline ratios, with date and machine. */
    public static String readmeSection(Bench.Results r, String reportLink) {
        long size = r.plan().sizes().get(r.plan().sizes().size() - 1);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "Measured by `java -jar bench/target/bench.jar` on %s; machine: %s; "
                + "median of %d counted runs%s, each strategy in its own JVM with -Xmx%s and " + ForkedJvm.GC + ". Full report and "
                + "charts: [%s](%s).%n%n", r.startedAt().substring(0, 10), r.machine(), r.plan().runs() * r.plan().rounds(),
                r.plan().rounds() <= 1 ? "" : " over " + r.plan().rounds() + " rounds in which the strategies took turns",
                r.plan().heap(), reportLink, reportLink));
        s.append(String.format(Locale.ROOT, "| strategy (%,d records) | median s | records/s | peak heap MB | RSS MB |%n", size));
        s.append("|---|---|---|---|---|\n");
        for (Measurement m : r.measurements()) {
            if (m.size() != size) {
                continue;
            }
            if (m.ok()) {
                s.append(String.format(Locale.ROOT, "| %s | %.2f | %,.0f | %d | %d |%n", m.strategy(), m.medianNanos() / 1e9,
                        m.recordsPerSecond(), m.peakHeapUsed() >> 20, m.maxRss() >> 20));
            } else {
                s.append("| ").append(m.strategy()).append(" | ").append(m.reason()).append(" | | | |\n");
            }
        }
        s.append('\n');
        String[][] headlines = {
            {"ours-end-to-end", "spring-batch", "end to end into Kafka vs Spring Batch reading only"},
            {"ours-split-bind", "spring-batch", "split + bind vs Spring Batch"},
            {"ours-split-bind", "woodstox-jaxb", "split + bind vs the study's Woodstox + JAXB"},
            {"ours-end-to-end", "woodstox-scan", "end to end vs the Woodstox scan ceiling"},
            {"ours-end-to-end", "kafka-producer", "end to end vs the Kafka producer ceiling"},
        };
        for (String[] h : headlines) {
            ratio(r, h[0], h[1], size).ifPresent(x -> s.append(String.format(Locale.ROOT, "- %s: **%.2fx**%n", h[2], x)));
        }
        s.append(Issue6Targets.lines(r, size));
        for (HeapSearch h : r.heapSearches()) {
            if (h.size() == size) {
                s.append(String.format(Locale.ROOT, "- whole-document JAXB needs at least -Xmx%s for this file%n",
                        h.smallestOk() < 0 ? "more than " + h.largestFailed() + "m" : h.smallestOk() + "m"));
            }
        }
        return s.toString();
    }

    /**
     * Seconds to the millisecond, or to the microsecond under one: a raw read of a small file takes
     * well under a millisecond, and its row said 0.000.
     */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, nanos < 1_000_000 ? "%.6f" : "%.3f", nanos / 1e9);
    }
}
