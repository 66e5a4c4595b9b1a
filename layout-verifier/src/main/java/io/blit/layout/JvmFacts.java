package io.blit.layout;

import io.blit.layout.internal.UnsafeAccess;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The facts about the running JVM that a field layout depends on. Two JVMs that agree on these place
 * the fields of the same class at the same offsets (HotSpot, JDK 15+ field layout).
 *
 * @param objectHeaderSize        bytes before the first possible field offset: 8 with compact object
 *                                headers, 12 with compressed class pointers, 16 without either
 * @param compactObjectHeaders    {@code -XX:+UseCompactObjectHeaders}
 * @param compressedClassPointers {@code -XX:+UseCompressedClassPointers}
 * @param objectAlignment         {@code -XX:ObjectAlignmentInBytes}
 * @param vmName                  {@code java.vm.name}
 * @param vmVersion               {@code java.vm.version}
 * @param byteOrder               the platform's native byte order, in which a block's multi-byte fields
 *                                are stored; the layout fingerprint does not cover it, so a reader must
 *                                compare it separately (Blit's {@code BlockReader} does)
 */
public record JvmFacts(int objectHeaderSize,
                       boolean compactObjectHeaders,
                       boolean compressedClassPointers,
                       int objectAlignment,
                       String vmName,
                       String vmVersion,
                       ByteOrder byteOrder) {

    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if a size is not positive
     * @throws NullPointerException     if a name or the byte order is null
     */
    public JvmFacts {
        Objects.requireNonNull(vmName, "vmName");
        Objects.requireNonNull(vmVersion, "vmVersion");
        Objects.requireNonNull(byteOrder, "byteOrder");
        if (objectHeaderSize <= 0 || objectAlignment <= 0) {
            throw new IllegalArgumentException("invalid JVM facts: header=" + objectHeaderSize + " alignment=" + objectAlignment);
        }
    }

    /**
     * Facts of a JVM with this platform's native byte order: the six-argument form, for callers that
     * do not name a byte order.
     *
     * @param objectHeaderSize        bytes before the first possible field offset
     * @param compactObjectHeaders    {@code -XX:+UseCompactObjectHeaders}
     * @param compressedClassPointers {@code -XX:+UseCompressedClassPointers}
     * @param objectAlignment         {@code -XX:ObjectAlignmentInBytes}
     * @param vmName                  {@code java.vm.name}
     * @param vmVersion               {@code java.vm.version}
     * @throws IllegalArgumentException if a size is not positive
     * @throws NullPointerException     if a name is null
     */
    public JvmFacts(int objectHeaderSize, boolean compactObjectHeaders, boolean compressedClassPointers,
                    int objectAlignment, String vmName, String vmVersion) {
        this(objectHeaderSize, compactObjectHeaders, compressedClassPointers, objectAlignment, vmName, vmVersion,
                ByteOrder.nativeOrder());
    }

    /**
     * The facts of this JVM, read once. The header size is measured ({@code Unsafe.objectFieldOffset}
     * of a probe field) where {@code sun.misc.Unsafe} memory access is allowed, else derived from the
     * flags ({@code HotSpotLayoutModel}).
     *
     * @return the facts of the running JVM
     * @throws UnsupportedOperationException if Unsafe memory access is denied and the JVM is not HotSpot
     */
    public static JvmFacts current() {
        return Current.FACTS;
    }

    /** {@return a short tag for the header mode, e.g. {@code "compact-headers"}} */
    public String headerMode() {
        if (compactObjectHeaders) {
            return "compact-headers";
        }
        return compressedClassPointers ? "compressed-class-pointers" : "uncompressed-class-pointers";
    }

    private static final class Current {
        static final JvmFacts FACTS = measure();

        /** A class whose only field sits at the first offset after the header. */
        @SuppressWarnings("unused")
        private static final class HeaderProbe {
            byte first;
        }

        private static JvmFacts measure() {
            boolean measurable = UnsafeAccess.memoryAccessAllowed();
            if (!measurable && !HotSpotFlags.available()) {
                throw new UnsupportedOperationException("sun.misc.Unsafe memory access is denied and this JVM ("
                        + System.getProperty("java.vm.name") + ") does not disclose HotSpot's layout flags:"
                        + " Blit cannot determine field offsets; run with --sun-misc-unsafe-memory-access=allow");
            }
            int header = measurable ? measuredHeaderSize() : -1;
            // Where a flag cannot be read (not HotSpot), infer it from the measured header size.
            boolean compact = HotSpotFlags.booleanFlag("UseCompactObjectHeaders", header == 8);
            boolean compressedClass = HotSpotFlags.booleanFlag("UseCompressedClassPointers", header <= 12);
            int alignment = HotSpotFlags.intFlag("ObjectAlignmentInBytes", 8);
            if (!measurable) {
                header = HotSpotFlags.headerSizeFromFlags(compact, compressedClass);
            }
            return new JvmFacts(header, compact, compressedClass, alignment,
                    System.getProperty("java.vm.name", "unknown"), System.getProperty("java.vm.version", "unknown"),
                    ByteOrder.nativeOrder());
        }

        private static int measuredHeaderSize() {
            try {
                return (int) UnsafeAccess.objectFieldOffset(HeaderProbe.class.getDeclaredField("first"));
            } catch (NoSuchFieldException e) {
                throw new AssertionError(e);
            }
        }
    }
}
