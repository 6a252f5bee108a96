package io.xmlingest.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.xmlingest.bench.strategy.Strategies;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A bench run's raw figures as JSON, so the report, charts and README section can be drawn again without re-measuring. */
final class ResultsJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultsJson() {
    }

    static void write(Bench.Results r, Path file) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("startedAt", r.startedAt());
        root.put("seconds", r.seconds());
        root.put("machine", r.machine());
        ObjectNode plan = root.putObject("plan");
        r.plan().sizes().forEach(plan.putArray("sizes")::add);
        r.plan().strategies().forEach(s -> plan.withArray("strategies").add(s.name()));
        plan.put("warmups", r.plan().warmups());
        plan.put("runs", r.plan().runs());
        plan.put("rounds", r.plan().rounds());
        plan.put("heap", r.plan().heap());
        plan.put("searchHeap", r.plan().searchHeap());
        plan.put("heapScaling", r.plan().heapScaling());
        root.set("measurements", JSON.valueToTree(r.measurements()));
        root.set("heapSearches", JSON.valueToTree(r.heapSearches()));
        JSON.writeValue(file.toFile(), root);
    }

    static Bench.Results read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        JsonNode p = root.get("plan");
        List<Long> sizes = new ArrayList<>();
        p.get("sizes").forEach(n -> sizes.add(n.asLong()));
        List<Strategies.Entry> strategies = new ArrayList<>();
        p.get("strategies").forEach(n -> strategies.add(Strategies.get(n.asText())));
        Bench.Plan plan = new Bench.Plan(sizes, strategies, p.get("warmups").asInt(), p.get("runs").asInt(),
                p.path("rounds").asInt(1), p.get("heap").asText(), null, null, p.get("searchHeap").asBoolean(),
                p.path("heapScaling").asBoolean(false));
        List<Measurement> measurements = new ArrayList<>();
        for (JsonNode m : root.get("measurements")) {
            measurements.add(new Measurement(m.get("strategy").asText(), m.get("size").asLong(), m.get("fileBytes").asLong(),
                    Measurement.Status.valueOf(m.get("status").asText()), m.get("reason").isNull() ? null : m.get("reason").asText(),
                    m.get("heap").asText(), m.get("records").asLong(), longs(m.get("nanos")), longs(m.get("allocated")),
                    m.get("peakHeapUsed").asLong(), m.get("peakLiveHeap").asLong(), m.get("maxRss").asLong(), phases(m.get("phases")),
                    m.hasNonNull("verified") ? m.get("verified").asText() : null, m.path("sampledLiveHeap").asLong(0),
                    m.path("liveSamples").asInt(0)));
        }
        List<HeapSearch> searches = new ArrayList<>();
        for (JsonNode h : root.get("heapSearches")) {
            searches.add(new HeapSearch(h.get("size").asLong(), h.get("smallestOk").asInt(), h.get("largestFailed").asInt(),
                    h.get("attempts").asInt()));
        }
        return new Bench.Results(plan, measurements, searches, root.get("startedAt").asText(), root.get("seconds").asDouble(),
                root.get("machine").asText());
    }

    static Map<String, Double> phases(JsonNode object) {
        Map<String, Double> phases = new LinkedHashMap<>();
        object.fields().forEachRemaining(e -> phases.put(e.getKey(), e.getValue().asDouble()));
        return phases;
    }

    static long[] longs(JsonNode array) {
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asLong();
        }
        return out;
    }
}
