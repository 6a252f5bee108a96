package io.xmlingest.app.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerMetricsTest {

    @Test
    void aFileTheWorkerMayNotMoveIsOnMetricsWhileItStaysInTheInbox() {
        Map<String, Double> stuck = new HashMap<>();
        WorkerMetrics metrics = new WorkerMetrics(1_000, () -> true, Map::of, () -> Map.copyOf(stuck));
        assertThat(metrics.registry().scrape()).contains("# TYPE xmlingest_file_stuck gauge")
                .doesNotContain("xmlingest_file_stuck{");
        stuck.put("held.xml", 1.0);
        assertThat(metrics.registry().scrape()).contains("xmlingest_file_stuck{file=\"held.xml\"} 1");
        stuck.clear();
        assertThat(metrics.registry().scrape()).doesNotContain("xmlingest_file_stuck{");
    }
}
