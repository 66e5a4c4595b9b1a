package io.blit.layout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a block written under one layout (the writer's) can be read under another (the reader's):
 * {@link #identical()} when their fingerprints are equal — same field names, types and offsets
 * relative to the start, same length — else the {@link #differences()}, which explain why not.
 *
 * <p>Fields are matched by name. Where several classes of a hierarchy declare the same name, the
 * k-th such field by offset in the writer is matched with the k-th in the reader, as the fingerprint
 * (which ignores the declaring class) sees them. Class names, start offsets and JVM facts are not
 * differences by themselves: a block at another start but with the same relative layout is identical.
 *
 * <p>Immutable and thread-safe.
 *
 * @param writer      the layout the block was written with
 * @param reader      the layout it would be read with
 * @param differences empty exactly when {@link #identical()}: missing and extra fields, changed types
 *                    and relative offsets in the writer's field order, then a changed block length
 */
public record LayoutComparison(LayoutDescriptor writer, LayoutDescriptor reader, List<LayoutDifference> differences) {

    /**
     * Checks that the differences agree with the fingerprints.
     *
     * @throws NullPointerException     if any component is null
     * @throws IllegalArgumentException if the differences are empty but the fingerprints differ, or the reverse
     */
    public LayoutComparison {
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(reader, "reader");
        differences = List.copyOf(differences);
        if (differences.isEmpty() != writer.fingerprint().equals(reader.fingerprint())) {
            throw new IllegalArgumentException("writer " + writer.className() + " fingerprint " + writer.fingerprint() + ", reader "
                    + reader.className() + " fingerprint " + reader.fingerprint() + ", but differences " + differences);
        }
    }

    /**
     * Compares the two layouts; see the class comment for how fields are matched.
     *
     * @param writer the layout a block was written with
     * @param reader the layout it would be read with
     * @return the comparison, with every difference
     */
    public static LayoutComparison of(LayoutDescriptor writer, LayoutDescriptor reader) {
        List<LayoutDifference> differences = new ArrayList<>();
        if (!writer.fingerprint().equals(reader.fingerprint())) {
            String className = reader.className();
            Map<String, FieldDescriptor> readerFields = byKey(reader);
            Map<String, FieldDescriptor> writerFields = byKey(writer);
            List<LayoutDifference> extra = new ArrayList<>();
            for (Map.Entry<String, FieldDescriptor> entry : writerFields.entrySet()) {
                FieldDescriptor w = entry.getValue();
                FieldDescriptor r = readerFields.get(entry.getKey());
                int writerOffset = w.offset() - writer.start();
                if (r == null) {
                    differences.add(new LayoutDifference.MissingInReader(className, w, writerOffset));
                    continue;
                }
                if (w.type() != r.type()) {
                    differences.add(new LayoutDifference.TypeChanged(className, w.name(), w.type(), r.type()));
                }
                int readerOffset = r.offset() - reader.start();
                if (writerOffset != readerOffset) {
                    differences.add(new LayoutDifference.OffsetChanged(className, w.name(), writerOffset, readerOffset));
                }
            }
            for (Map.Entry<String, FieldDescriptor> entry : readerFields.entrySet()) {
                if (!writerFields.containsKey(entry.getKey())) {
                    FieldDescriptor r = entry.getValue();
                    extra.add(new LayoutDifference.ExtraInReader(className, r, r.offset() - reader.start()));
                }
            }
            differences.addAll(extra);
            if (writer.length() != reader.length()) {
                differences.add(new LayoutDifference.LengthChanged(className, writer.length(), reader.length()));
            }
        }
        return new LayoutComparison(writer, reader, differences);
    }

    /** {@return true when a block written under {@link #writer()} reads correctly under {@link #reader()}} */
    public boolean identical() {
        return writer.fingerprint().equals(reader.fingerprint());
    }

    /**
     * {@return one line per difference under a line that names both layouts, or one line saying they are
     * identical; the text of a "layout mismatch" error}
     */
    public String report() {
        StringBuilder out = new StringBuilder();
        if (identical()) {
            return out.append("layouts identical: ").append(side(writer)).toString();
        }
        out.append("layout mismatch: writer ").append(side(writer)).append(", reader ").append(side(reader))
                .append("; ").append(differences.size()).append(differences.size() == 1 ? " difference" : " differences");
        for (LayoutDifference difference : differences) {
            out.append("\n  ").append(difference);
        }
        return out.toString();
    }

    private static String side(LayoutDescriptor d) {
        return d.className() + " [" + d.start() + ", " + d.end() + ") fingerprint " + d.fingerprint() + " (" + d.jvm().headerMode() + ")";
    }

    /** Fields by name, in offset order; a repeated name gets {@code #k} for its k-th occurrence. */
    private static Map<String, FieldDescriptor> byKey(LayoutDescriptor descriptor) {
        Map<String, FieldDescriptor> byKey = new LinkedHashMap<>();
        Map<String, Integer> seen = new HashMap<>();
        for (FieldDescriptor field : descriptor.fields()) {
            int occurrence = seen.merge(field.name(), 1, Integer::sum);
            byKey.put(occurrence == 1 ? field.name() : field.name() + "#" + occurrence, field);
        }
        return byKey;
    }
}
