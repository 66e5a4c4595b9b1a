package io.blit.tools.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON of Blit's result files (the latency harness's and the benchmark summary), through one Jackson mapper.
 * Writers build a tree ({@link #object()}, {@link #array()}) and {@link #write} it in the {@link RowLayout}: one
 * result per line, so that a committed result file reads and diffs row by row. Numbers are written as given;
 * a {@link java.math.BigDecimal} in plain notation, never with an exponent. Stateless; thread-safe (the mapper
 * is immutable).
 */
public final class ReportJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private ReportJson() {
    }

    /** A new, empty JSON object whose entries keep their insertion order. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** A new, empty JSON array. */
    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** {@code document} in the {@link RowLayout}, ending with a newline. */
    public static String text(JsonNode document) {
        return MAPPER.writer().with(new RowLayout()).writeValueAsString(document) + "\n";
    }

    /** Writes {@link #text} of {@code document} to {@code file}. */
    public static void write(Path file, JsonNode document) throws IOException {
        Files.writeString(file, text(document));
    }

    /**
     * The tree of {@code json}.
     *
     * @throws IllegalArgumentException if {@code json} is not one JSON value (Jackson's message attached)
     */
    public static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The tree of {@code file}'s content.
     *
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException naming the file if it is not JSON
     */
    public static JsonNode read(Path file) throws IOException {
        try {
            return parse(Files.readString(file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
