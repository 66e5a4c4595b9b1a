package io.blit.layout.internal;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * The project's only holder of a privileged memory primitive ({@code sun.misc.Unsafe}).
 *
 * <p><b>Contract: this class checks nothing.</b> Every caller validates first (a non-null object of
 * the exact class whose layout supplied the offset, an offset inside that layout's field block) and
 * then makes one call here. The object-side accessors touch only heap objects; segment memory is
 * accessed through the {@code MemorySegment} API so that its bounds, liveness and thread checks
 * apply, except by absolute address after the caller has checked, through that API, that the segment
 * is alive, confined to the calling thread (so nothing can close it during the call) and large enough.
 *
 * <p>On JDK 24+ the first call prints the JDK's "terminally deprecated" warning unless the JVM runs
 * with {@code --sun-misc-unsafe-memory-access=allow}; with {@code deny} the calls throw
 * {@link UnsupportedOperationException}.
 *
 * <p>Offsets passed to the get/put methods need not be aligned: Blit's supported platforms (x86-64,
 * AArch64) allow unaligned plain loads and stores.
 */
public final class UnsafeAccess {
    private static final Unsafe UNSAFE = loadUnsafe();

    private UnsafeAccess() {
    }

    /**
     * Whether {@code sun.misc.Unsafe}'s memory-access methods work in this JVM: false when it runs with
     * {@code --sun-misc-unsafe-memory-access=deny} (JDK 24+, JEP 498), where they throw
     * {@link UnsupportedOperationException}. Decided once, by calling one such method
     * ({@code objectFieldOffset} of a probe field): the call itself is the only robust test, since the
     * mode may come from the command line, an {@code @argfile}, {@code JDK_JAVA_OPTIONS} or a future
     * default, and the JDK exposes it in no property. Under the default {@code warn} mode this call is
     * Blit's first Unsafe call and prints the JDK's one-time warning, as the verifier always did.
     */
    public static boolean memoryAccessAllowed() {
        return Probe.ALLOWED;
    }

    private static final class Probe {
        static final boolean ALLOWED = probe();

        @SuppressWarnings("unused")
        private byte field;

        private static boolean probe() {
            try {
                objectFieldOffset(Probe.class.getDeclaredField("field"));
                return true;
            } catch (UnsupportedOperationException denied) {
                return false;
            } catch (NoSuchFieldException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static Unsafe loadUnsafe() {
        try {
            Field theUnsafe = Unsafe.class.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return (Unsafe) theUnsafe.get(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The byte offset of an instance field inside its object. */
    public static long objectFieldOffset(Field field) {
        return UNSAFE.objectFieldOffset(field);
    }

    public static long getLong(Object object, long offset) {
        return UNSAFE.getLong(object, offset);
    }

    public static void putLong(Object object, long offset, long value) {
        UNSAFE.putLong(object, offset, value);
    }

    public static int getInt(Object object, long offset) {
        return UNSAFE.getInt(object, offset);
    }

    public static void putInt(Object object, long offset, int value) {
        UNSAFE.putInt(object, offset, value);
    }

    public static short getShort(Object object, long offset) {
        return UNSAFE.getShort(object, offset);
    }

    public static void putShort(Object object, long offset, short value) {
        UNSAFE.putShort(object, offset, value);
    }

    public static byte getByte(Object object, long offset) {
        return UNSAFE.getByte(object, offset);
    }

    public static void putByte(Object object, long offset, byte value) {
        UNSAFE.putByte(object, offset, value);
    }

    // Raw native memory by absolute address: only for memory the caller has proven alive and not
    // closable during the call (a segment confined to the calling thread, checked just before).

    public static long getLong(long address) {
        return UNSAFE.getLong(address);
    }

    public static void putLong(long address, long value) {
        UNSAFE.putLong(address, value);
    }

    public static double getDouble(long address) {
        return UNSAFE.getDouble(address);
    }

    public static void putDouble(long address, double value) {
        UNSAFE.putDouble(address, value);
    }

    public static int getInt(long address) {
        return UNSAFE.getInt(address);
    }

    public static void putInt(long address, int value) {
        UNSAFE.putInt(address, value);
    }

    public static float getFloat(long address) {
        return UNSAFE.getFloat(address);
    }

    public static void putFloat(long address, float value) {
        UNSAFE.putFloat(address, value);
    }

    public static short getShort(long address) {
        return UNSAFE.getShort(address);
    }

    public static void putShort(long address, short value) {
        UNSAFE.putShort(address, value);
    }

    public static char getChar(long address) {
        return UNSAFE.getChar(address);
    }

    public static void putChar(long address, char value) {
        UNSAFE.putChar(address, value);
    }

    public static byte getByte(long address) {
        return UNSAFE.getByte(address);
    }

    public static void putByte(long address, byte value) {
        UNSAFE.putByte(address, value);
    }

    /** A boolean as the JVM and the FFM API store it: one byte, 1 or 0; any non-zero byte reads as true. */
    public static boolean getBoolean(long address) {
        return UNSAFE.getByte(address) != 0;
    }

    public static void putBoolean(long address, boolean value) {
        UNSAFE.putByte(address, value ? (byte) 1 : (byte) 0);
    }
}
