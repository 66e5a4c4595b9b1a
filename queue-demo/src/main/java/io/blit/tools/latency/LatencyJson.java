package io.blit.tools.latency;

import io.blit.tools.report.ReportJson;
import io.blit.tools.report.RunMetadata;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes and reads latency results as JSON, with Jackson in {@link ReportJson}'s one-run-per-line layout. One
 * result is one object:
 *
 * <pre>{@code
 * {"kind": "tc", "mode": "thread", "rate": 100000,
 *  "jdk": "25.0.3 (OpenJDK 64-Bit Server VM 25.0.3+9-LTS)", "cpu": "AMD EPYC", "cpus": 2, "date": "2026-11-24",
 *  "command": "queue-demo.jar bench --kind tc",
 *  "runs": [{"p50_ns": 181, "p90_ns": 230, "p99_ns": 1020, "p99_7_ns": 2100, "p99_9_ns": 5300,
 *            "p99_99_ns": 21000, "max_ns": 90100}, ...]}
 * }</pre>
 *
 * Several results (one per kind of a {@code bench --kind tc,normal}) are a JSON array of such objects, in kind
 * order. All figures are integers in nanoseconds. {@code jdk} to {@code command} are {@link RunMetadata}'s, the
 * same in every object of a file; a reader treats them as optional (files written before they were recorded lack
 * them). Stateless.
 */
public final class LatencyJson {
    private LatencyJson() {
    }

    /**
     * What one object of the file says: a kind's figures per run.
     *
     * @param kind the kind's command-line name ({@link LatencyKind#cliName()})
     * @param mode {@code thread} or {@code process}
     * @param rate messages per second
     * @param runs the figures of each measured run, in run order
     */
    public record Entry(String kind, String mode, long rate, List<Percentiles> runs) {
        /** @throws IllegalArgumentException if there is no run */
        public Entry {
            runs = List.copyOf(runs);
            if (runs.isEmpty()) {
                throw new IllegalArgumentException("an entry needs at least one run");
            }
        }

        /** The figures of {@code result}. */
        public static Entry of(LatencyResult result) {
            return new Entry(result.kind().cliName(), result.mode(), result.rate(), result.percentiles());
        }
    }

    /** Writes {@link #json} of {@code results} to {@code file}, with this JVM's {@link RunMetadata#current()}. */
    public static void write(Path file, List<LatencyResult> results) throws IOException {
        ReportJson.write(file, document(RunMetadata.current(), entries(results)));
    }

    /**
     * The object of a single result, or an array of the objects of several, ending with a newline.
     *
     * @throws IllegalArgumentException if {@code results} is empty
     */
    public static String json(List<LatencyResult> results) {
        return ReportJson.text(document(RunMetadata.current(), entries(results)));
    }

    /**
     * The document of {@code entries}: one object, or an array of several.
     *
     * @throws IllegalArgumentException if {@code entries} is empty
     */
    static JsonNode document(RunMetadata metadata, List<Entry> entries) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("no results to write");
        }
        if (entries.size() == 1) {
            return object(metadata, entries.getFirst());
        }
        ArrayNode array = ReportJson.array();
        entries.forEach(entry -> array.add(object(metadata, entry)));
        return array;
    }

    /**
     * The entries of a file {@link #write} wrote (or one written before the metadata keys were recorded).
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file and the key if it is not such a document, or a run's figures
     *                                  are negative or out of order
     */
    public static List<Entry> read(Path file) throws IOException {
        JsonNode document = ReportJson.read(file);
        List<Entry> entries = new ArrayList<>();
        try {
            for (JsonNode object : document.isArray() ? document : List.of(document)) {
                List<Percentiles> runs = new ArrayList<>();
                for (JsonNode run : required(object, "runs")) {
                    long[] v = new long[Percentiles.JSON_NAMES.size()];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = integer(run, Percentiles.JSON_NAMES.get(i));
                    }
                    runs.add(new Percentiles(v[0], v[1], v[2], v[3], v[4], v[5], v[6]));
                }
                entries.add(new Entry(text(object, "kind"), text(object, "mode"), integer(object, "rate"), runs));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
        return entries;
    }

    private static List<Entry> entries(List<LatencyResult> results) {
        return results.stream().map(Entry::of).toList();
    }

    private static ObjectNode object(RunMetadata metadata, Entry entry) {
        ObjectNode object = ReportJson.object()
                .put("kind", entry.kind())
                .put("mode", entry.mode())
                .put("rate", entry.rate());
        metadata.putInto(object);
        ArrayNode runs = object.putArray("runs");
        for (Percentiles p : entry.runs()) {
            ObjectNode run = runs.addObject();
            long[] values = p.values();
            for (int i = 0; i < values.length; i++) {
                run.put(Percentiles.JSON_NAMES.get(i), values[i]);
            }
        }
        return object;
    }

    private static JsonNode required(JsonNode object, String key) {
        JsonNode value = object.get(key);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing \"" + key + "\" in " + object);
        }
        return value;
    }

    private static long integer(JsonNode object, String key) {
        JsonNode value = required(object, key);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("\"" + key + "\" is not an integer: " + value);
        }
        return value.longValue();
    }

    private static String text(JsonNode object, String key) {
        JsonNode value = required(object, key);
        if (!value.isString()) {
            throw new IllegalArgumentException("\"" + key + "\" is not a string: " + value);
        }
        return value.stringValue();
    }
}
