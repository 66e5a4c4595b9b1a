package io.blit.layout;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the instance fields of a trivially copyable class lie inside its heap objects: the field
 * block {@code [start, start + length)}, which spans every instance field of the whole hierarchy and
 * may contain padding.
 *
 * <p>Immutable and thread-safe. Obtain one from {@link LayoutVerifier#verify(Class)}; build one
 * directly only through {@link #of(Class, List, JvmFacts)}, which derives start, length, padding and
 * fingerprint. The canonical constructor checks that every component agrees with the fields.
 *
 * <p>The layout is a fact about one JVM configuration ({@link #jvm()}): the same class can have
 * another layout under other JVM flags, another JVM vendor or another JDK version. Compare
 * {@link #fingerprint()}s before reading a block written elsewhere.
 *
 * @param type        the class
 * @param start       offset of the first field byte, from the start of the object
 * @param length      bytes from the first field byte to the last, padding included
 * @param fields      every instance field of the hierarchy, sorted by offset
 * @param padding     the bytes of the block that belong to no field, sorted by offset
 * @param jvm         the JVM facts the layout was measured under
 * @param fingerprint 16 hex digits: a stable hash of each field's name, type and offset relative to
 *                    {@code start}, and of {@code length}
 */
public record BlockLayout(Class<?> type,
                          int start,
                          int length,
                          List<FieldSlot> fields,
                          List<PaddingGap> padding,
                          JvmFacts jvm,
                          String fingerprint) {

    /**
     * Checks that every component follows from the fields.
     *
     * @throws NullPointerException     if any component is null
     * @throws IllegalArgumentException if the fields overlap, are unsorted or empty, or start, length,
     *                                  padding or fingerprint do not follow from them
     */
    public BlockLayout {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(fingerprint, "fingerprint");
        fields = List.copyOf(fields);
        padding = List.copyOf(padding);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException(type.getName() + ": a block layout needs at least one field");
        }
        for (int i = 1; i < fields.size(); i++) {
            FieldSlot previous = fields.get(i - 1);
            FieldSlot field = fields.get(i);
            if (field.offset() < previous.offset()) {
                throw new IllegalArgumentException(type.getName() + ": fields are not sorted by offset: field " + field
                        + " comes after field " + previous);
            }
            if (field.offset() < previous.end()) {
                throw new IllegalArgumentException(type.getName() + ": field " + field + " overlaps with previous field " + previous);
            }
        }
        int expectedStart = fields.getFirst().offset();
        int expectedLength = fields.getLast().end() - expectedStart;
        if (start != expectedStart || length != expectedLength) {
            throw new IllegalArgumentException(type.getName() + ": block [" + start + ", " + (start + length)
                    + ") does not match its fields [" + expectedStart + ", " + (expectedStart + expectedLength)
                    + "), from " + fields.getFirst() + " to " + fields.getLast());
        }
        List<PaddingGap> expectedPadding = gapsBetween(fields);
        if (!padding.equals(expectedPadding)) {
            throw new IllegalArgumentException(type.getName() + ": padding " + padding + " does not match the gaps between fields "
                    + expectedPadding + "; first difference " + firstDifference(fields, padding, expectedPadding));
        }
        String expectedFingerprint = fingerprintOf(fields, start, length);
        if (!fingerprint.equals(expectedFingerprint)) {
            throw new IllegalArgumentException(type.getName() + ": fingerprint " + fingerprint + " does not match the fields ("
                    + expectedFingerprint + "): " + fields);
        }
    }

    /**
     * A layout of the given fields, in any order, with start, length, padding and fingerprint derived.
     *
     * @param type   the class
     * @param fields every instance field of the class's hierarchy, in any order
     * @param jvm    the JVM facts the fields' offsets were measured under
     * @return the layout, its fields sorted by offset
     * @throws IllegalArgumentException if the fields are empty or overlap
     */
    public static BlockLayout of(Class<?> type, List<FieldSlot> fields, JvmFacts jvm) {
        List<FieldSlot> sorted = new ArrayList<>(fields);
        sorted.sort((a, b) -> Integer.compare(a.offset(), b.offset()));
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException(type.getName() + ": a block layout needs at least one field");
        }
        int start = sorted.getFirst().offset();
        int length = sorted.getLast().end() - start;
        return new BlockLayout(type, start, length, sorted, gapsBetween(sorted), jvm, fingerprintOf(sorted, start, length));
    }

    /** {@return this layout without its class: what a file header stores and a class-free reader compares} */
    public LayoutDescriptor descriptor() {
        return LayoutDescriptor.of(this);
    }

    /** {@return the first offset after the block} */
    public int end() {
        return start + length;
    }

    /** {@return the total bytes of padding inside the block} */
    public int paddingBytes() {
        int sum = 0;
        for (PaddingGap gap : padding) {
            sum += gap.length();
        }
        return sum;
    }

    /**
     * The field with this name.
     *
     * @param name the field's name
     * @return the field
     * @throws IllegalArgumentException if the class has no such instance field
     */
    public FieldSlot field(String name) {
        for (FieldSlot field : fields) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        throw new IllegalArgumentException(type.getName() + " has no instance field named '" + name + "'");
    }

    /** {@return a multi-line table of the block: one line per field and per padding gap, by offset} */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append(type.getName()).append(": block [").append(start).append(", ").append(end())
                .append(") length=").append(length).append(" padding=").append(paddingBytes())
                .append(" fingerprint=").append(fingerprint)
                .append(" jvm=").append(jvm.headerMode()).append('\n');
        int gap = 0;
        for (FieldSlot field : fields) {
            while (gap < padding.size() && padding.get(gap).offset() < field.offset()) {
                out.append("  ").append(padding.get(gap++)).append('\n');
            }
            out.append("  ").append(field).append('\n');
        }
        return out.toString();
    }

    private static List<PaddingGap> gapsBetween(List<FieldSlot> sortedFields) {
        List<PaddingGap> gaps = new ArrayList<>();
        for (int i = 1; i < sortedFields.size(); i++) {
            int previousEnd = sortedFields.get(i - 1).end();
            int offset = sortedFields.get(i).offset();
            if (offset > previousEnd) {
                gaps.add(new PaddingGap(previousEnd, offset - previousEnd));
            }
        }
        return gaps;
    }

    /** Where the two padding lists first differ, with the fields on either side of that offset. */
    private static String firstDifference(List<FieldSlot> fields, List<PaddingGap> claimed, List<PaddingGap> expected) {
        int i = 0;
        while (i < claimed.size() && i < expected.size() && claimed.get(i).equals(expected.get(i))) {
            i++;
        }
        int offset = Math.min(i < claimed.size() ? claimed.get(i).offset() : Integer.MAX_VALUE,
                i < expected.size() ? expected.get(i).offset() : Integer.MAX_VALUE);
        FieldSlot before = null;
        FieldSlot after = null;
        for (FieldSlot field : fields) {
            if (field.offset() < offset) {
                before = field;
            } else if (after == null) {
                after = field;
            }
        }
        return "@" + offset + (before == null ? "" : " after field " + before) + (after == null ? "" : " before field " + after);
    }

    private static String fingerprintOf(List<FieldSlot> sortedFields, int start, int length) {
        return Fingerprint.of(sortedFields, FieldSlot::name, FieldSlot::type, FieldSlot::offset, start, length);
    }
}
