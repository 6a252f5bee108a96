package io.xmlingest.app;

import static io.xmlingest.core.config.Validators.between;

import io.xmlingest.core.config.IngestSettings;
import io.xmlingest.core.config.Setting;
import io.xmlingest.core.config.Validators;
import io.xmlingest.core.config.SettingType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Settings of the command-line application, declared once, next to the pipeline's. */
public final class AppSettings {
    private AppSettings() {
    }

    public static final Setting<String> EMBEDDED_DATA_DIR = Setting.of("embedded.data.dir", SettingType.STRING,
            ".xmlingest/kafka",
            "Data directory of the embedded broker that ingest, read and worker start when kafka.bootstrap.servers is "
                    + "empty. Data published by one command is there for the next.",
            v -> v.isBlank() ? "must not be empty" : null);

    public static final Setting<String> INBOX_DIR = Setting.of("inbox.dir", SettingType.STRING, "",
            "The worker's inbox directory. Files appear in it complete (written as NAME.part, or elsewhere, then "
                    + "renamed); the worker keeps processing/, done/, failed/ and sharded/ (used when work.shards > 0) "
                    + "inside it.", v -> null);

    public static final Setting<String> WORKER_ID = Setting.of("worker.id", SettingType.STRING, "",
            "The worker's identity, and with it its Kafka transactional id: a restarted worker with the same id "
                    + "fences its predecessor and resumes its files. Empty: derived from the host name and the inbox "
                    + "path. Two workers sharing an inbox need distinct ids.",
            v -> v.matches("[A-Za-z0-9._-]*") ? null : "may hold only ASCII letters and digits, '.', '_' and '-'");

    public static final Setting<Long> INBOX_POLL_MS = Setting.of("inbox.poll.interval.ms", SettingType.LONG, 250L,
            "How often the worker looks for new files in the inbox.", between(10, 3_600_000));

    public static final Setting<Long> INBOX_SETTLE_MS = Setting.of("inbox.settle.ms", SettingType.LONG, 500L,
            "A file is taken only once it has not been modified for this long, so a writer that does not rename "
                    + "is not read half-written. Names ending in .part or .tmp, and names starting with '.', are never taken.",
            between(0, 3_600_000));

    public static final Setting<Integer> HTTP_PORT = Setting.of("http.port", SettingType.INT, 8080,
            "Port of the worker's /health and /metrics endpoints; 0 picks a free port, -1 turns them off.",
            between(-1, 65_535));

    public static final Setting<String> HTTP_HOST = Setting.of("http.host", SettingType.STRING, "0.0.0.0",
            "Address the worker's HTTP endpoints listen on.", v -> v.isBlank() ? "must not be empty" : null);

    public static final Setting<Long> SHUTDOWN_TIMEOUT_MS = Setting.of("worker.shutdown.timeout.ms", SettingType.LONG,
            20_000L,
            "On SIGTERM or SIGINT the worker takes no new file, commits the page in hand and exits; after this "
                    + "long it exits anyway, and the open transaction is aborted (the next start resumes the file).",
            between(100, 600_000));

    public static final Setting<Long> RETRY_MAX_BACKOFF_MS = Setting.of("worker.retry.max.backoff.ms", SettingType.LONG,
            30_000L,
            "Longest wait between attempts to reach Kafka again; waits double from 500 ms up to this.",
            between(500, 3_600_000));

    public static final Setting<Long> PROGRESS_INTERVAL_MS = Setting.of("worker.progress.interval.ms", SettingType.LONG,
            10_000L, "How often the worker logs a long file's progress (percent of bytes, records/s, time left).",
            between(100, 3_600_000));

    public static final Setting<Integer> WORK_SHARDS = Setting.of("work.shards", SettingType.INT, 0,
            "0: the worker ingests each file of its inbox alone. N > 0: the worker is one of a group that shares the "
                    + "work through the work topic: a file taken from the inbox is cut into up to N shards at record "
                    + "starts, and every worker of the group (same topic and work.topic) ingests the shards Kafka "
                    + "assigns it. The inbox must then be a directory every worker reads, at the same path.",
            between(0, 10_000));

    public static final Setting<String> WORK_TOPIC = Setting.of("work.topic", SettingType.STRING, "",
            "Topic of the work orders (one per shard) when work.shards > 0; its consumer group is the topic's name "
                    + "with '-workers'. Empty: the first topic's name with '.work'.", Validators.topicName(true));

    public static final Setting<Integer> WORK_PARTITIONS = Setting.of("work.partitions", SettingType.INT, 12,
            "Partitions of the work topic when a worker creates it: the most workers that can ingest shards at once.",
            between(1, 10_000));

    /** The shortest retention of completed files: no order of a file can be forgotten sooner than this after its cut. */
    public static final long COMPLETED_RETENTION_MIN_MS = 3_600_000;

    public static final Setting<Long> COMPLETED_RETENTION_MS = Setting.of("worker.completed.retention.ms",
            SettingType.LONG, 0L,
            "How long the workers of an inbox remember a file they completed (give them all the same value). "
                    + "Meanwhile the same content dropped again is reported already_ingested and publishes nothing (one "
                    + "that completed with no record is read again); "
                    + "afterwards the file's checkpoint is deleted (a tombstone on the checkpoint topic, and from "
                    + "memory), and the same content is ingested as a new file. 0: remembered for ever, one entry per "
                    + "file in each worker's memory and on the compacted topic. Otherwise at least an hour (3600000); "
                    + "days are the usual choice: longer than anyone might drop a file again by mistake.",
            Validators.rule("0, or at least 3,600,000",
                    v -> v == 0 || v >= COMPLETED_RETENTION_MIN_MS ? null : "must be 0 (for ever) or at least 3600000 (an hour)"));

    public static final Setting<Integer> FILE_MAX_CRASHES = Setting.of("worker.file.max.crashes", SettingType.INT, 3,
            "How many times a file may stop the worker on an unexpected error (a fault in xmlingest or in the "
                    + "model's code, the JVM out of memory) before the next start sets it aside in failed/ with a "
                    + "failed event (none if it stopped the worker before its content was identified), so that the "
                    + "files behind it are taken. Dropped into the inbox again, it resumes from its last checkpoint "
                    + "with its count at 0. A kill from outside is not counted: the worker cannot tell it from an "
                    + "operator's. With work.shards > 0 the count is a shard's, kept beside its file in sharded/ "
                    + "(give every worker of the group the same value): the shard is then set aside as a failed "
                    + "shard, and its file fails once the other shards have ended; dropped into the group's inbox "
                    + "again, the file's failed shards resume where they stood. 0: never set aside.",
            between(0, 1000));

    /** Every setting the application reads: the pipeline's and its own. */
    public static final List<Setting<?>> ALL;

    static {
        List<Setting<?>> all = new ArrayList<>(IngestSettings.ALL);
        all.addAll(List.of(EMBEDDED_DATA_DIR, INBOX_DIR, WORKER_ID, INBOX_POLL_MS, INBOX_SETTLE_MS, HTTP_PORT,
                HTTP_HOST, SHUTDOWN_TIMEOUT_MS, RETRY_MAX_BACKOFF_MS, PROGRESS_INTERVAL_MS, WORK_SHARDS, WORK_TOPIC,
                WORK_PARTITIONS, COMPLETED_RETENTION_MS, FILE_MAX_CRASHES));
        ALL = Collections.unmodifiableList(all);
    }
}
