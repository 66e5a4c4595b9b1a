package io.blit.layout;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link BlockLayout} without the {@code Class} object: the class name, the block, the fields, the
 * JVM facts and the fingerprint, as a writer stores them in a file header and a reader compares them
 * with its own class's layout ({@link #compatibility(LayoutDescriptor)}), or a tool uses them to
 * interpret records of a class it cannot load.
 *
 * <p>Immutable and thread-safe. The canonical constructor checks the same invariants as
 * {@code BlockLayout}'s (fields sorted, non-overlapping, start, length and fingerprint follow from
 * them), so a descriptor that exists is self-consistent, whether built from a layout or decoded.
 *
 * <h2>Binary encoding</h2>
 * {@link #encodeTo(MemorySegment, long)} writes, and {@link #decode(MemorySegment, long)} reads, this
 * versioned and checksummed format, for file headers. Every integer is little-endian whatever the
 * platform; every string is a u16 byte count, then that many bytes of UTF-8. Offsets count from the
 * descriptor's first byte.
 * <pre>
 *  offset  size  content
 *  0       4     magic, the bytes 'B' 'L' 'Y' 'D'
 *  4       2     format version, u16 = 1; any other version is rejected
 *  6       2     field count N, u16, 1..65535
 *  8       4     encoded size S, i32: every byte from offset 0 to the end of the checksum
 *  12      4     start, i32 &gt;= 0
 *  16      4     length, i32 &gt;= 1
 *  20      4     JVM object header size, i32 &gt;= 1
 *  24      4     JVM object alignment, i32 &gt;= 1
 *  28      1     flags: bit 0 compact object headers, bit 1 compressed class pointers, bit 2 big-endian
 *                (the writer's native byte order; clear = little-endian); others 0
 *  29      8     fingerprint: its 16 hex digits as 8 bytes
 *  37      var   class name (1..1024 bytes), JVM name (0..1024), JVM version (0..1024)
 *  ...     var   N fields, by offset: name (1..1024 bytes), declaring class name (1..1024),
 *                type u8 (0 boolean, 1 byte, 2 char, 3 short, 4 int, 5 float, 6 long, 7 double),
 *                offset i32 &gt;= 0
 *  S-4     4     CRC32C of bytes [0, S-4)
 * </pre>
 * The fingerprint covers field names, types and relative offsets and the length; the CRC32C covers
 * every byte, so that no single corrupted byte (indeed no error burst up to 32 bits) goes unnoticed,
 * including in the names and JVM facts the fingerprint does not cover. Decoding checks, in order:
 * that each read lies inside the segment, magic, version, count, size, checksum, then every value,
 * that the fields end exactly at the checksum, and last this record's invariants (which recompute
 * the fingerprint). Any failure is a {@link CorruptDescriptorException} naming the byte offset; a
 * format version other than 1 is rejected, not guessed at. The bytes may be hostile (a file from
 * elsewhere): decoding allocates in proportion to the bytes it has checked are there, never to a count or
 * length it read (a size of 2^31 - 1 or a count of 65535 in a short input allocates nothing for them).
 *
 * @param className   the binary name of the class, as {@link Class#getName()}
 * @param start       offset of the first field byte, from the start of the object
 * @param length      bytes from the first field byte to the last, padding included
 * @param fields      every instance field of the hierarchy, sorted by offset
 * @param jvm         the JVM facts the layout was measured under
 * @param fingerprint 16 hex digits, defined as {@link BlockLayout#fingerprint()}'s
 */
public record LayoutDescriptor(String className,
                               int start,
                               int length,
                               List<FieldDescriptor> fields,
                               JvmFacts jvm,
                               String fingerprint) {

    /**
     * Checks that every component follows from the fields.
     *
     * @throws NullPointerException     if any component is null
     * @throws IllegalArgumentException if the class name is empty, the fields are empty, unsorted or
     *                                  overlap, or start, length or fingerprint do not follow from them
     */
    public LayoutDescriptor {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(jvm, "jvm");
        Objects.requireNonNull(fingerprint, "fingerprint");
        fields = List.copyOf(fields);
        if (className.isEmpty()) {
            throw new IllegalArgumentException("a layout descriptor needs a class name");
        }
        if (fields.isEmpty()) {
            throw new IllegalArgumentException(className + ": a layout descriptor needs at least one field");
        }
        for (int i = 1; i < fields.size(); i++) {
            FieldDescriptor previous = fields.get(i - 1);
            FieldDescriptor field = fields.get(i);
            if (field.offset() < previous.offset()) {
                throw new IllegalArgumentException(className + ": fields are not sorted by offset: field " + field
                        + " comes after field " + previous);
            }
            if (field.offset() < previous.end()) {
                throw new IllegalArgumentException(className + ": field " + field + " overlaps with previous field " + previous);
            }
        }
        int expectedStart = fields.getFirst().offset();
        int expectedLength = fields.getLast().end() - expectedStart;
        if (start != expectedStart || length != expectedLength) {
            throw new IllegalArgumentException(className + ": block [" + start + ", " + ((long) start + length)
                    + ") does not match its fields [" + expectedStart + ", " + (expectedStart + expectedLength)
                    + "), from " + fields.getFirst() + " to " + fields.getLast());
        }
        String expectedFingerprint = fingerprintOf(fields, start, length);
        if (!fingerprint.equals(expectedFingerprint)) {
            throw new IllegalArgumentException(className + ": fingerprint " + fingerprint + " does not match the fields ("
                    + expectedFingerprint + "): " + fields);
        }
    }

    /**
     * {@return the class-free form of a layout; its fingerprint equals the layout's}
     *
     * @param layout a measured layout
     */
    public static LayoutDescriptor of(BlockLayout layout) {
        List<FieldDescriptor> fields = layout.fields().stream().map(FieldDescriptor::of).toList();
        return new LayoutDescriptor(layout.type().getName(), layout.start(), layout.length(), fields, layout.jvm(),
                layout.fingerprint());
    }

    /**
     * A descriptor of the given fields, in any order, with start, length and fingerprint derived.
     *
     * @param className the binary name of the class
     * @param fields    every instance field of the class's hierarchy, in any order
     * @param jvm       the JVM facts the fields' offsets were measured under
     * @return the descriptor, its fields sorted by offset
     * @throws IllegalArgumentException if the fields are empty or overlap
     */
    public static LayoutDescriptor of(String className, List<FieldDescriptor> fields, JvmFacts jvm) {
        List<FieldDescriptor> sorted = new ArrayList<>(fields);
        sorted.sort((a, b) -> Integer.compare(a.offset(), b.offset()));
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException(className + ": a layout descriptor needs at least one field");
        }
        int start = sorted.getFirst().offset();
        int length = sorted.getLast().end() - start;
        return new LayoutDescriptor(className, start, length, sorted, jvm, fingerprintOf(sorted, start, length));
    }

    /** {@return the first offset after the block} */
    public int end() {
        return start + length;
    }

    /**
     * The field with this name; for a name that several classes of the hierarchy declare, the one at
     * the lowest offset.
     *
     * @param name the field's name
     * @return the field
     * @throws IllegalArgumentException if there is no such field
     */
    public FieldDescriptor field(String name) {
        for (FieldDescriptor field : fields) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        throw new IllegalArgumentException(className + " has no instance field named '" + name + "'");
    }

    /**
     * How a block written with this (the writer's) layout reads under {@code reader}'s layout: identical
     * when the fingerprints are equal, else every difference, field by field.
     *
     * @param reader the layout the block would be read with
     * @return the comparison of this layout (the writer's) with the reader's
     */
    public LayoutComparison compatibility(LayoutDescriptor reader) {
        return LayoutComparison.of(this, reader);
    }

    /** {@return the number of bytes {@link #encodeTo(MemorySegment, long)} writes} */
    public int encodedSize() {
        return DescriptorCodec.encodedSize(this);
    }

    /**
     * Writes this descriptor at {@code offset}, {@link #encodedSize()} bytes.
     *
     * @param segment the segment to write to
     * @param offset  the byte offset in the segment where the descriptor starts
     * @throws IllegalArgumentException  if the segment is read-only, or a count or name exceeds the
     *                                   format's bounds (more than 65535 fields, a name over 1024 bytes)
     * @throws IndexOutOfBoundsException if {@code [offset, offset + encodedSize())} is outside the segment
     * @throws IllegalStateException     if the segment's scope is closed
     */
    public void encodeTo(MemorySegment segment, long offset) {
        DescriptorCodec.encode(this, segment, offset);
    }

    /**
     * Reads a descriptor written by {@link #encodeTo(MemorySegment, long)}.
     *
     * @param segment the segment to read from
     * @param offset  the byte offset in the segment where the descriptor starts
     * @return the descriptor
     * @throws CorruptDescriptorException if the bytes at {@code offset} are truncated, corrupt or not a
     *                                    descriptor; the message names the byte offset and the problem
     * @throws IndexOutOfBoundsException  if {@code offset} is negative or beyond the segment's end
     * @throws IllegalStateException      if the segment's scope is closed
     */
    public static LayoutDescriptor decode(MemorySegment segment, long offset) {
        return DescriptorCodec.decode(segment, offset);
    }

    /**
     * Bytes the descriptor at {@code offset} extends over, from its header alone (checking magic,
     * version and that the size is plausible and inside the segment, but not the content).
     *
     * @param segment the segment to read from
     * @param offset  the byte offset in the segment where the descriptor starts
     * @return the descriptor's encoded size in bytes
     * @throws CorruptDescriptorException as {@link #decode(MemorySegment, long)} for the header
     * @throws IndexOutOfBoundsException  if {@code offset} is negative or beyond the segment's end
     */
    public static int encodedSizeAt(MemorySegment segment, long offset) {
        return DescriptorCodec.encodedSizeAt(segment, offset);
    }

    /** {@return a multi-line table of the block, one line per field and padding gap, as {@link BlockLayout#describe()}} */
    public String describe() {
        StringBuilder out = new StringBuilder();
        int padding = length;
        for (FieldDescriptor field : fields) {
            padding -= field.size();
        }
        out.append(className).append(": block [").append(start).append(", ").append(end())
                .append(") length=").append(length).append(" padding=").append(padding)
                .append(" fingerprint=").append(fingerprint)
                .append(" jvm=").append(jvm.headerMode()).append('\n');
        int previousEnd = start;
        for (FieldDescriptor field : fields) {
            if (field.offset() > previousEnd) {
                out.append("  ").append(new PaddingGap(previousEnd, field.offset() - previousEnd)).append('\n');
            }
            out.append("  ").append(field).append('\n');
            previousEnd = field.end();
        }
        return out.toString();
    }

    private static String fingerprintOf(List<FieldDescriptor> sortedFields, int start, int length) {
        return Fingerprint.of(sortedFields, FieldDescriptor::name, FieldDescriptor::type, FieldDescriptor::offset, start, length);
    }
}
