package io.blit.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code summary.json}, by hand (the module takes no JSON library for this):
 *
 * <pre>{@code
 * {"mode": "full"|"quick", "jdk": "...", "cpu": "...",
 *  "results": [{"suite": "marketdata", "op": "write", "variant": "blit", "bytes": 144,
 *               "ns_per_op": 7.9, "error": 0.1}, ...
 *              {"suite": "sweep", "op": "read", "variant": "floor", "bytes": 4096,
 *               "ns_per_op": 80.2, "error": 1.3, "gb_per_s": 51.1}, ...],
 *  "ratios": {"write": {"blit_over_floor": 1.2, ...}, "read": {...}}}
 * }</pre>
 *
 * Numbers keep six significant digits. A number JMH could not produce (an error from one iteration, an
 * unknown serialised size) is {@code null}; a ratio without both inputs is absent (see {@link Ratios}).
 */
final class SummaryWriter {
    private SummaryWriter() {
    }

    static void write(Path file, RunInfo info, List<Score> results) throws IOException {
        Files.writeString(file, json(info, results));
    }

    static String json(RunInfo info, List<Score> results) {
        StringBuilder out = new StringBuilder(256 + 160 * results.size());
        out.append("{\n");
        out.append("  \"mode\": ").append(string(info.mode())).append(",\n");
        out.append("  \"jdk\": ").append(string(info.jdk())).append(",\n");
        out.append("  \"cpu\": ").append(string(info.cpu())).append(",\n");
        out.append("  \"results\": [");
        List<String> rows = new ArrayList<>();
        for (Score m : results) {
            StringBuilder row = new StringBuilder("{");
            row.append("\"suite\": ").append(string(m.id().suite()));
            row.append(", \"op\": ").append(string(m.id().op()));
            row.append(", \"variant\": ").append(string(m.id().variant()));
            row.append(", \"bytes\": ").append(m.bytes() > 0 ? Integer.toString(m.bytes()) : "null");
            row.append(", \"ns_per_op\": ").append(number(m.nsPerOp()));
            row.append(", \"error\": ").append(number(m.error()));
            m.gbPerS().ifPresent(g -> row.append(", \"gb_per_s\": ").append(number(g)));
            rows.add(row.append('}').toString());
        }
        out.append(rows.isEmpty() ? "" : "\n    " + String.join(",\n    ", rows) + "\n  ");
        out.append("],\n");
        out.append("  \"ratios\": {");
        List<String> ops = new ArrayList<>();
        for (Map.Entry<String, Map<String, Double>> op : Ratios.of(results).entrySet()) {
            List<String> pairs = new ArrayList<>();
            op.getValue().forEach((name, value) -> pairs.add(string(name) + ": " + number(value)));
            ops.add(string(op.getKey()) + ": {" + String.join(", ", pairs) + "}");
        }
        out.append("\n    ").append(String.join(",\n    ", ops)).append("\n  }\n");
        return out.append("}\n").toString();
    }

    /** A JSON number, or {@code null} for NaN and infinities, which JSON cannot hold. */
    static String number(double value) {
        if (!Double.isFinite(value)) {
            return "null";
        }
        return Digits.significant(value, 6);
    }

    /** A JSON string literal. */
    static String string(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
