package io.blit.layout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The binary form of a {@link LayoutDescriptor}, as its class comment documents it byte by byte.
 * Error messages are built here, through {@link #corrupt(long, String)}. Stateless; thread-safe.
 */
final class DescriptorCodec {
    static final int MAGIC = 'B' | 'L' << 8 | 'Y' << 16 | 'D' << 24;
    static final int VERSION = 1;
    static final int MAX_FIELDS = 0xFFFF;
    static final int MAX_STRING_BYTES = 1024;

    static final int SIZE_OFFSET = 8;
    private static final int NAMES_OFFSET = 37;
    private static final int CHECKSUM_BYTES = 4;
    private static final int MIN_SIZE = NAMES_OFFSET + 3 * Short.BYTES + 1 + (2 * Short.BYTES + 2) + 1 + Integer.BYTES + CHECKSUM_BYTES;
    private static final int MAX_FIELD_BYTES = 2 * (Short.BYTES + MAX_STRING_BYTES) + 1 + Integer.BYTES;
    /** A field's fewest bytes: two one-byte names with their lengths, the type and the offset. */
    private static final int MIN_FIELD_BYTES = 2 * (Short.BYTES + 1) + 1 + Integer.BYTES;
    private static final int MAX_SIZE = NAMES_OFFSET + 3 * (Short.BYTES + MAX_STRING_BYTES) + MAX_FIELDS * MAX_FIELD_BYTES + CHECKSUM_BYTES;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    /** Type codes of the format, fixed here so that reordering {@link FieldType} cannot change files. */
    private static final List<FieldType> TYPE_CODES = List.of(FieldType.BOOLEAN, FieldType.BYTE, FieldType.CHAR,
            FieldType.SHORT, FieldType.INT, FieldType.FLOAT, FieldType.LONG, FieldType.DOUBLE);
    private static final int COMPACT = 1;
    private static final int COMPRESSED_CLASS = 2;
    /** Added after version 1 shipped: files written before it have the bit clear, and were all little-endian. */
    private static final int BIG_ENDIAN = 4;

    private DescriptorCodec() {
    }

    static int encodedSize(LayoutDescriptor descriptor) {
        int size = NAMES_OFFSET + CHECKSUM_BYTES + descriptor.fields().size() * (1 + Integer.BYTES);
        for (byte[] string : strings(descriptor)) {
            size += Short.BYTES + string.length;
        }
        return size;
    }

    static void encode(LayoutDescriptor descriptor, MemorySegment segment, long offset) {
        List<byte[]> strings = strings(descriptor);
        int size = encodedSize(descriptor);
        if (segment.isReadOnly()) {
            throw new IllegalArgumentException("cannot encode " + descriptor.className() + " into a read-only segment");
        }
        if (offset < 0 || offset > segment.byteSize() - size) {
            throw new IndexOutOfBoundsException("index=" + offset + " length=" + size + " capacity=" + segment.byteSize());
        }
        JvmFacts jvm = descriptor.jvm();
        segment.set(INT, offset, MAGIC);
        segment.set(SHORT, offset + 4, (short) VERSION);
        segment.set(SHORT, offset + 6, (short) descriptor.fields().size());
        segment.set(INT, offset + SIZE_OFFSET, size);
        segment.set(INT, offset + 12, descriptor.start());
        segment.set(INT, offset + 16, descriptor.length());
        segment.set(INT, offset + 20, jvm.objectHeaderSize());
        segment.set(INT, offset + 24, jvm.objectAlignment());
        segment.set(BYTE, offset + 28, (byte) ((jvm.compactObjectHeaders() ? COMPACT : 0) | (jvm.compressedClassPointers() ? COMPRESSED_CLASS : 0)
                | (jvm.byteOrder() == ByteOrder.BIG_ENDIAN ? BIG_ENDIAN : 0)));
        MemorySegment.copy(HexFormat.of().parseHex(descriptor.fingerprint()), 0, segment, BYTE, offset + 29, Fingerprint.HEX_DIGITS / 2);
        long at = offset + NAMES_OFFSET;
        for (int i = 0; i < 3; i++) {
            at = putString(segment, at, strings.get(i));
        }
        for (int i = 0; i < descriptor.fields().size(); i++) {
            FieldDescriptor field = descriptor.fields().get(i);
            at = putString(segment, at, strings.get(3 + 2 * i));
            at = putString(segment, at, strings.get(4 + 2 * i));
            segment.set(BYTE, at, (byte) TYPE_CODES.indexOf(field.type()));
            segment.set(INT, at + 1, field.offset());
            at += 1 + Integer.BYTES;
        }
        segment.set(INT, at, crc(segment, offset, at));
    }

    static int encodedSizeAt(MemorySegment segment, long offset) {
        if (offset < 0 || offset > segment.byteSize()) {
            throw new IndexOutOfBoundsException("index=" + offset + " length=" + SIZE_OFFSET + " capacity=" + segment.byteSize());
        }
        Reader in = new Reader(segment, offset, segment.byteSize());
        int magic = in.int32("magic");
        if (magic != MAGIC) {
            throw corrupt(offset, "bad magic 0x" + Integer.toHexString(magic) + ", expected 0x" + Integer.toHexString(MAGIC) + " ('BLYD')");
        }
        int version = in.u16("format version");
        if (version != VERSION) {
            throw corrupt(offset + 4, "unsupported format version " + version + ", this reader knows only " + VERSION);
        }
        int count = in.u16("field count");
        if (count == 0) {
            throw corrupt(offset + 6, "field count 0, a descriptor has at least one field");
        }
        int size = in.int32("encoded size");
        if (size < MIN_SIZE || size > MAX_SIZE) {
            throw corrupt(offset + SIZE_OFFSET, "encoded size " + size + " outside [" + MIN_SIZE + ", " + MAX_SIZE + "]");
        }
        if (size > segment.byteSize() - offset) {
            throw corrupt(offset + SIZE_OFFSET, "truncated: encoded size " + size + " but only "
                    + (segment.byteSize() - offset) + " bytes from offset " + offset + " to the segment's end");
        }
        return size;
    }

    static LayoutDescriptor decode(MemorySegment segment, long offset) {
        int size = encodedSizeAt(segment, offset);
        long checksumAt = offset + size - CHECKSUM_BYTES;
        int stored = segment.get(INT, checksumAt);
        int computed = crc(segment, offset, checksumAt);
        if (stored != computed) {
            throw corrupt(checksumAt, "checksum mismatch: stored 0x" + Integer.toHexString(stored) + ", computed 0x"
                    + Integer.toHexString(computed) + " over bytes [" + offset + ", " + checksumAt + ")");
        }
        Reader in = new Reader(segment, offset + 6, checksumAt);
        int count = in.u16("field count");
        in.int32("encoded size");
        int start = in.int32("start");
        int length = in.int32("length");
        int header = in.int32("object header size");
        int alignment = in.int32("object alignment");
        int flags = in.u8("flags");
        if (start < 0 || length < 1 || header < 1 || alignment < 1) {
            throw corrupt(offset + 12, "start " + start + ", length " + length + ", header " + header + ", alignment " + alignment
                    + ": start must be >= 0, the others >= 1");
        }
        if ((flags & ~(COMPACT | COMPRESSED_CLASS | BIG_ENDIAN)) != 0) {
            throw corrupt(offset + 28, "unknown flag bits 0x" + Integer.toHexString(flags));
        }
        byte[] fingerprint = new byte[Fingerprint.HEX_DIGITS / 2];
        in.require(fingerprint.length, "fingerprint");
        MemorySegment.copy(segment, BYTE, in.at, fingerprint, 0, fingerprint.length);
        in.at += fingerprint.length;
        String className = in.string("class name", 1);
        String vmName = in.string("JVM name", 0);
        String vmVersion = in.string("JVM version", 0);
        // sized by the bytes left, not by the count read: a hostile count must not allocate
        List<FieldDescriptor> fields = new ArrayList<>((int) Math.min(count, (checksumAt - in.at) / MIN_FIELD_BYTES));
        for (int i = 0; i < count; i++) {
            long fieldAt = in.at;
            String name = in.string("name of field " + i, 1);
            String declaringClass = in.string("declaring class of field " + i, 1);
            int code = in.u8("type of field " + i);
            if (code >= TYPE_CODES.size()) {
                throw corrupt(in.at - 1, "unknown type code " + code + " of field " + i + " '" + name + "'");
            }
            int fieldOffset = in.int32("offset of field " + i);
            try {
                fields.add(new FieldDescriptor(name, declaringClass, TYPE_CODES.get(code), fieldOffset));
            } catch (IllegalArgumentException e) {
                throw corrupt(fieldAt, "field " + i + ": " + e.getMessage(), e);
            }
        }
        if (in.at != checksumAt) {
            throw corrupt(in.at, (checksumAt - in.at) + " unexpected bytes between the last field and the checksum");
        }
        try {
            JvmFacts jvm = new JvmFacts(header, (flags & COMPACT) != 0, (flags & COMPRESSED_CLASS) != 0, alignment, vmName, vmVersion,
                    (flags & BIG_ENDIAN) != 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            return new LayoutDescriptor(className, start, length, fields, jvm, HexFormat.of().formatHex(fingerprint));
        } catch (IllegalArgumentException e) {
            throw corrupt(offset, "inconsistent descriptor: " + e.getMessage(), e);
        }
    }

    private static CorruptDescriptorException corrupt(long at, String problem) {
        return new CorruptDescriptorException(at, problem);
    }

    private static CorruptDescriptorException corrupt(long at, String problem, Throwable cause) {
        return new CorruptDescriptorException(at, problem, cause);
    }

    /** Every string in encoding order: class, JVM name, JVM version, then name and declaring class per field. */
    private static List<byte[]> strings(LayoutDescriptor descriptor) {
        if (descriptor.fields().size() > MAX_FIELDS) {
            throw new IllegalArgumentException(descriptor.className() + " has " + descriptor.fields().size()
                    + " fields, the descriptor format holds at most " + MAX_FIELDS);
        }
        List<byte[]> strings = new ArrayList<>(3 + 2 * descriptor.fields().size());
        strings.add(utf8(descriptor.className(), "class name"));
        strings.add(utf8(descriptor.jvm().vmName(), "JVM name"));
        strings.add(utf8(descriptor.jvm().vmVersion(), "JVM version"));
        for (FieldDescriptor field : descriptor.fields()) {
            strings.add(utf8(field.name(), "name of field " + field));
            strings.add(utf8(field.declaringClassName(), "declaring class of field " + field));
        }
        return strings;
    }

    private static byte[] utf8(String string, String what) {
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(string));
            if (encoded.remaining() > MAX_STRING_BYTES) {
                throw new IllegalArgumentException(what + " is " + encoded.remaining() + " bytes of UTF-8, at most "
                        + MAX_STRING_BYTES + " fit the descriptor format");
            }
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(what + " is not valid Unicode: " + e, e);
        }
    }

    private static long putString(MemorySegment segment, long at, byte[] bytes) {
        segment.set(SHORT, at, (short) bytes.length);
        MemorySegment.copy(bytes, 0, segment, BYTE, at + Short.BYTES, bytes.length);
        return at + Short.BYTES + bytes.length;
    }

    /** CRC32C of {@code [from, to)}, through a small buffer: heap segments of non-byte arrays have no ByteBuffer view. */
    private static int crc(MemorySegment segment, long from, long to) {
        CRC32C crc = new CRC32C();
        byte[] chunk = new byte[(int) Math.min(4096, to - from)];
        for (long at = from; at < to; at += chunk.length) {
            int n = (int) Math.min(chunk.length, to - at);
            MemorySegment.copy(segment, BYTE, at, chunk, 0, n);
            crc.update(chunk, 0, n);
        }
        return (int) crc.getValue();
    }

    /** A cursor that checks every read against {@code limit} before making it. */
    private static final class Reader {
        private final MemorySegment segment;
        private final long limit;
        long at;

        Reader(MemorySegment segment, long at, long limit) {
            this.segment = segment;
            this.at = at;
            this.limit = limit;
        }

        void require(long bytes, String what) {
            if (bytes > limit - at) {
                throw corrupt(at, "truncated: " + what + " needs " + bytes + " bytes, only " + (limit - at) + " remain");
            }
        }

        int u8(String what) {
            require(1, what);
            return Byte.toUnsignedInt(segment.get(BYTE, at++));
        }

        int u16(String what) {
            require(Short.BYTES, what);
            int value = Short.toUnsignedInt(segment.get(SHORT, at));
            at += Short.BYTES;
            return value;
        }

        int int32(String what) {
            require(Integer.BYTES, what);
            int value = segment.get(INT, at);
            at += Integer.BYTES;
            return value;
        }

        String string(String what, int minBytes) {
            long lengthAt = at;
            int length = u16(what + " length");
            if (length < minBytes || length > MAX_STRING_BYTES) {
                throw corrupt(lengthAt, what + " length " + length + " outside [" + minBytes + ", " + MAX_STRING_BYTES + "]");
            }
            require(length, what);
            byte[] bytes = new byte[length];
            MemorySegment.copy(segment, BYTE, at, bytes, 0, length);
            try {
                String value = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
                at += length;
                return value;
            } catch (CharacterCodingException e) {
                throw corrupt(at, what + " is not valid UTF-8: " + e);
            }
        }
    }
}
