package io.blit.tools.report;

import java.util.BitSet;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.PrettyPrinter;
import tools.jackson.core.util.Instantiatable;

/**
 * Jackson's pretty printer for result files: the root object puts each entry on its own line, an array puts each
 * element that is an object or an array on its own line, and everything else stays on one line with {@code ", "}
 * and {@code ": "} between entries. So a list of results prints one result per line:
 *
 * <pre>{@code
 * {
 *   "mode": "quick",
 *   "results": [
 *     {"suite": "marketdata", "op": "write", "ns_per_op": 7.9},
 *     {"suite": "marketdata", "op": "read", "ns_per_op": 8.1}
 *   ],
 *   "ratios": {"write": {"blit_over_floor": 1.2}}
 * }
 * }</pre>
 *
 * Elements of an array of scalars are separated by a bare comma. Stateful (which open containers broke their
 * lines), hence {@link Instantiatable}: Jackson takes a fresh instance for every document it writes.
 */
final class RowLayout implements PrettyPrinter, Instantiatable<RowLayout> {
    private static final String INDENT = "  ";
    /** Bit {@code d}: the open container at nesting depth {@code d} puts its entries on their own lines. */
    private final BitSet broken = new BitSet();

    @Override
    public RowLayout createInstance() {
        return new RowLayout();
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) {
        open(g, '{', true);
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) {
        if (broken.get(depth(g))) {
            newLine(g, depth(g));
        }
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) {
        g.writeRaw(',');
        if (broken.get(depth(g))) {
            newLine(g, depth(g));
        } else {
            g.writeRaw(' ');
        }
    }

    @Override
    public void writeObjectNameValueSeparator(JsonGenerator g) {
        g.writeRaw(": ");
    }

    @Override
    public void writeEndObject(JsonGenerator g, int nrOfEntries) {
        close(g, nrOfEntries, '}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) {
        open(g, '[', false);
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) {
        // The line breaks, if any, come with the first element that is a container (see open).
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) {
        g.writeRaw(',');
    }

    @Override
    public void writeEndArray(JsonGenerator g, int nrOfValues) {
        close(g, nrOfValues, ']');
    }

    /**
     * Writes a container's opening bracket (the generator's context is already the new container's): inside an
     * array, the container starts a line of its own, and the array is marked as breaking its lines. The root object
     * breaks its own lines too.
     */
    private void open(JsonGenerator g, char bracket, boolean isObject) {
        int depth = depth(g);
        if (depth > 1 && g.streamWriteContext().getParent().inArray()) {
            broken.set(depth - 1);
            newLine(g, depth - 1);
        }
        g.writeRaw(bracket);
        broken.set(depth, isObject && depth == 1);
    }

    /** Writes a container's closing bracket, on a line of its own if the container broke its lines. */
    private void close(JsonGenerator g, int entries, char bracket) {
        int depth = depth(g);
        if (broken.get(depth) && entries > 0) {
            newLine(g, depth - 1);
        }
        broken.clear(depth);
        g.writeRaw(bracket);
    }

    /** A newline, indented once per line-breaking container open at depths 1 to {@code depth}. */
    private void newLine(JsonGenerator g, int depth) {
        g.writeRaw('\n');
        int levels = broken.get(1, depth + 1).cardinality();
        for (int i = 0; i < levels; i++) {
            g.writeRaw(INDENT);
        }
    }

    private static int depth(JsonGenerator g) {
        return g.streamWriteContext().getNestingDepth();
    }
}
