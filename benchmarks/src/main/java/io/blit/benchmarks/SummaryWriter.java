package io.blit.benchmarks;

import io.blit.tools.report.ReportJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes {@code summary.json} with Jackson, in {@link ReportJson}'s one-result-per-line layout:
 *
 * <pre>{@code
 * {"mode": "full"|"quick", "jdk": "...", "cpu": "...", "cpus": 2, "date": "2026-11-24", "command": "...",
 *  "results": [{"suite": "marketdata", "op": "write", "variant": "blit", "bytes": 144,
 *               "ns_per_op": 7.9, "error": 0.1}, ...
 *              {"suite": "sweep", "op": "read", "variant": "floor", "bytes": 4096,
 *               "ns_per_op": 80.2, "error": 1.3, "gb_per_s": 51.1}, ...],
 *  "ratios": {"write": {"blit_over_floor": 1.2, ...}, "read": {...}}}
 * }</pre>
 *
 * {@code jdk} to {@code command} are {@link io.blit.tools.report.RunMetadata}'s. Numbers keep six significant
 * digits, in plain notation. A number JMH could not produce (an error from one iteration, an unknown serialised
 * size) is {@code null}; a ratio without both inputs is absent (see {@link Ratios}). Stateless.
 */
final class SummaryWriter {
    private static final int DIGITS = 6;

    private SummaryWriter() {
    }

    static void write(Path file, RunInfo info, List<Score> results) throws IOException {
        ReportJson.write(file, document(info, results));
    }

    /** The text {@link #write} writes. */
    static String json(RunInfo info, List<Score> results) {
        return ReportJson.text(document(info, results));
    }

    static ObjectNode document(RunInfo info, List<Score> results) {
        ObjectNode root = ReportJson.object().put("mode", info.mode());
        info.metadata().putInto(root);
        ArrayNode rows = root.putArray("results");
        for (Score m : results) {
            ObjectNode row = rows.addObject()
                    .put("suite", m.id().suite())
                    .put("op", m.id().op())
                    .put("variant", m.id().variant());
            row.set("bytes", m.bytes() > 0 ? row.numberNode(m.bytes()) : row.nullNode());
            row.set("ns_per_op", number(m.nsPerOp()));
            row.set("error", number(m.error()));
            m.gbPerS().ifPresent(g -> row.set("gb_per_s", number(g)));
        }
        ObjectNode ratios = root.putObject("ratios");
        for (Map.Entry<String, Map<String, Double>> op : Ratios.of(results).entrySet()) {
            ObjectNode byName = ratios.putObject(op.getKey());
            op.getValue().forEach((name, value) -> byName.set(name, number(value)));
        }
        return root;
    }

    /** A JSON number of six significant digits, or {@code null} for NaN and infinities, which JSON cannot hold. */
    static JsonNode number(double value) {
        return Double.isFinite(value)
                ? JsonNodeFactory.instance.numberNode(Digits.rounded(value, DIGITS))
                : JsonNodeFactory.instance.nullNode();
    }
}
