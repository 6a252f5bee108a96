package io.xmlingest.app.model;

import io.xmlingest.core.config.IngestConfig;
import io.xmlingest.core.error.RecordRejectedException;
import io.xmlingest.core.page.OutgoingRecord;
import io.xmlingest.core.pipeline.IngestListener;
import io.xmlingest.core.pipeline.IngestionPipeline;
import io.xmlingest.core.publish.InMemoryPagePublisher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What ingesting a file with a compiled model publishes, and what it rejects, each in file order. */
record Ingested(List<String> values, List<RecordRejectedException> rejected) {

    static Ingested of(IngestConfig config, Path file) {
        InMemoryPagePublisher publisher = new InMemoryPagePublisher();
        List<RecordRejectedException> rejected = new ArrayList<>();
        IngestionPipeline.create(config, publisher, new IngestListener() {
            @Override
            public void rejected(RecordRejectedException e) {
                rejected.add(e);
            }
        }).ingest(file);
        List<String> values = new ArrayList<>();
        publisher.pages().forEach(p -> p.records().stream().map(OutgoingRecord::value)
                .forEach(v -> values.add(new String(v, StandardCharsets.UTF_8))));
        return new Ingested(values, rejected);
    }
}
