package io.blit.layout;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/** Reads HotSpot's {@code -XX} flags through its diagnostic MXBean; every read has a fallback for other JVMs. */
final class HotSpotFlags {
    private static final HotSpotDiagnosticMXBean HOT_SPOT = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);

    private HotSpotFlags() {
    }

    /** Whether this JVM has HotSpot's diagnostic MXBean (and so the field layout that Blit models). */
    static boolean available() {
        return HOT_SPOT != null && option("UseCompressedClassPointers") != null;
    }

    /** The value of a flag, or null where it cannot be read (not HotSpot, or no such flag). */
    static String option(String name) {
        if (HOT_SPOT == null) {
            return null;
        }
        try {
            VMOption option = HOT_SPOT.getVMOption(name);
            return option.getValue();
        } catch (IllegalArgumentException unknownOption) {
            return null;
        }
    }

    static boolean booleanFlag(String name, boolean fallback) {
        String value = option(name);
        return value == null ? fallback : Boolean.parseBoolean(value);
    }

    static int intFlag(String name, int fallback) {
        String value = option(name);
        return value == null ? fallback : Integer.parseInt(value);
    }

    /** Bytes of a reference field: 4 with {@code -XX:+UseCompressedOops} (the default for heaps below 32 GB), else 8. */
    static int referenceSize() {
        return booleanFlag("UseCompressedOops", true) ? 4 : 8;
    }

    /**
     * The header size that HotSpot's flags imply: 8 with compact object headers, 12 with compressed
     * class pointers, else 16 (JDK 25 on 64-bit platforms).
     */
    static int headerSizeFromFlags(boolean compactHeaders, boolean compressedClassPointers) {
        if (compactHeaders) {
            return 8;
        }
        return compressedClassPointers ? 12 : 16;
    }
}
