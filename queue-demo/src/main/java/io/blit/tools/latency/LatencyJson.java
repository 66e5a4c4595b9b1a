package io.blit.tools.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes latency results as JSON, by hand (the module takes no JSON library). One result is one object:
 *
 * <pre>{@code
 * {"kind": "tc", "mode": "thread", "rate": 100000,
 *  "runs": [{"p50_ns": 181, "p90_ns": 230, "p99_ns": 1020, "p99_7_ns": 2100, "p99_9_ns": 5300,
 *            "p99_99_ns": 21000, "max_ns": 90100}, ...]}
 * }</pre>
 *
 * Several results (one per kind of a {@code bench --kind tc,normal}) are a JSON array of such objects, in kind
 * order. All figures are integers in nanoseconds. Stateless.
 */
public final class LatencyJson {
    private LatencyJson() {
    }

    /** Writes {@link #json} of {@code results} to {@code file}. */
    public static void write(Path file, List<LatencyResult> results) throws IOException {
        Files.writeString(file, json(results));
    }

    /**
     * The object of a single result, or an array of the objects of several, ending with a newline.
     *
     * @throws IllegalArgumentException if {@code results} is empty
     */
    public static String json(List<LatencyResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no results to write");
        }
        if (results.size() == 1) {
            return object(results.getFirst(), "") + "\n";
        }
        List<String> objects = new ArrayList<>();
        for (LatencyResult result : results) {
            objects.add(object(result, "  "));
        }
        return "[\n" + String.join(",\n", objects) + "\n]\n";
    }

    private static String object(LatencyResult result, String indent) {
        StringBuilder out = new StringBuilder(256);
        out.append(indent).append("{\"kind\": ").append(string(result.kind().cliName()))
                .append(", \"mode\": ").append(string(result.mode()))
                .append(", \"rate\": ").append(result.rate())
                .append(", \"runs\": [");
        List<String> runs = new ArrayList<>();
        for (Percentiles p : result.percentiles()) {
            long[] values = p.values();
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < values.length; i++) {
                pairs.add(string(Percentiles.JSON_NAMES.get(i)) + ": " + values[i]);
            }
            runs.add("{" + String.join(", ", pairs) + "}");
        }
        out.append("\n").append(indent).append("  ").append(String.join(",\n" + indent + "  ", runs));
        return out.append("]}").toString();
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    static String string(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (char c : value.toCharArray()) {
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
