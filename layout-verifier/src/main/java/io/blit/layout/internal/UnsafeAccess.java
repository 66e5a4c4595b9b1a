package io.blit.layout.internal;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * The project's only holder of a privileged memory primitive: the JDK's {@code jdk.internal.misc.Unsafe} where
 * {@code java.base} exports that package to Blit ({@link InternalUnsafe}), else {@code sun.misc.Unsafe}.
 *
 * <p><b>Contract: this class checks nothing.</b> Every caller validates first (a non-null object of
 * the exact class whose layout supplied the offset, an offset inside that layout's field block) and
 * then makes one call here. The object-side accessors touch only heap objects; segment memory is
 * accessed through the {@code MemorySegment} API so that its bounds, liveness and thread checks
 * apply, except by absolute address after the caller has checked, through that API, that the segment
 * is alive, confined to the calling thread (so nothing can close it during the call) and large enough.
 *
 * <p>Through {@code sun.misc.Unsafe}, on JDK 24+ the first call prints the JDK's "terminally deprecated" warning
 * unless the JVM runs with {@code --sun-misc-unsafe-memory-access=allow}; with {@code deny} the calls throw
 * {@link UnsupportedOperationException}. Through the internal class (the JVM runs with
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}, or a jar started with {@code -jar} names that export
 * in its manifest) nothing is printed and {@code deny} does not apply: the same code, quiet, in every mode.
 *
 * <p>Offsets passed to the get/put methods need not be aligned: Blit's supported platforms (x86-64,
 * AArch64) allow unaligned plain loads and stores.
 */
public final class UnsafeAccess {
    private static final Unsafe UNSAFE = loadUnsafe();
    /** Every call goes to the JDK's internal Unsafe: a constant, so C2 keeps one branch of each method. */
    private static final boolean INTERNAL = InternalUnsafe.AVAILABLE;

    private UnsafeAccess() {
    }

    /**
     * Whether this class's memory-access methods work in this JVM: true through the JDK's internal Unsafe; through
     * {@code sun.misc.Unsafe}, false when the JVM runs with {@code --sun-misc-unsafe-memory-access=deny} (JDK 24+,
     * JEP 498), where they throw {@link UnsupportedOperationException}. Decided once, by calling one such method
     * ({@code objectFieldOffset} of a probe field): the call itself is the only robust test, since the
     * mode may come from the command line, an {@code @argfile}, {@code JDK_JAVA_OPTIONS} or a future
     * default, and the JDK exposes it in no property. Under the default {@code warn} mode this call is
     * Blit's first Unsafe call and prints the JDK's one-time warning, as the verifier always did.
     */
    public static boolean memoryAccessAllowed() {
        return Probe.ALLOWED;
    }

    /**
     * {@return the class the accessors call: {@code "jdk.internal.misc.Unsafe"} (quiet in every mode),
     * {@code "sun.misc.Unsafe"}, or {@code "none"} where {@code sun.misc.Unsafe} is denied and the internal class is
     * not exported to Blit} Decided once; for diagnostics (the demo prints it).
     */
    public static String backend() {
        if (INTERNAL) {
            return "jdk.internal.misc.Unsafe";
        }
        return memoryAccessAllowed() ? "sun.misc.Unsafe" : "none";
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
        if (INTERNAL) {
            try {
                return (long) InternalUnsafe.OBJECT_FIELD_OFFSET.invokeExact(field);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.objectFieldOffset(field);
    }

    public static long getLong(Object object, long offset) {
        if (INTERNAL) {
            try {
                return (long) InternalUnsafe.GET_LONG_OBJECT.invokeExact(object, offset);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getLong(object, offset);
    }

    public static void putLong(Object object, long offset, long value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_LONG_OBJECT.invokeExact(object, offset, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putLong(object, offset, value);
    }

    public static int getInt(Object object, long offset) {
        if (INTERNAL) {
            try {
                return (int) InternalUnsafe.GET_INT_OBJECT.invokeExact(object, offset);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getInt(object, offset);
    }

    public static void putInt(Object object, long offset, int value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_INT_OBJECT.invokeExact(object, offset, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putInt(object, offset, value);
    }

    public static short getShort(Object object, long offset) {
        if (INTERNAL) {
            try {
                return (short) InternalUnsafe.GET_SHORT_OBJECT.invokeExact(object, offset);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getShort(object, offset);
    }

    public static void putShort(Object object, long offset, short value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_SHORT_OBJECT.invokeExact(object, offset, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putShort(object, offset, value);
    }

    public static byte getByte(Object object, long offset) {
        if (INTERNAL) {
            try {
                return (byte) InternalUnsafe.GET_BYTE_OBJECT.invokeExact(object, offset);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getByte(object, offset);
    }

    public static void putByte(Object object, long offset, byte value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_BYTE_OBJECT.invokeExact(object, offset, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putByte(object, offset, value);
    }

    // Raw native memory by absolute address: only for memory the caller has proven alive and not
    // closable during the call (a segment confined to the calling thread, checked just before).

    public static long getLong(long address) {
        if (INTERNAL) {
            try {
                return (long) InternalUnsafe.GET_LONG.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getLong(address);
    }

    public static void putLong(long address, long value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_LONG.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putLong(address, value);
    }

    public static double getDouble(long address) {
        if (INTERNAL) {
            try {
                return (double) InternalUnsafe.GET_DOUBLE.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getDouble(address);
    }

    public static void putDouble(long address, double value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_DOUBLE.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putDouble(address, value);
    }

    public static int getInt(long address) {
        if (INTERNAL) {
            try {
                return (int) InternalUnsafe.GET_INT.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getInt(address);
    }

    public static void putInt(long address, int value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_INT.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putInt(address, value);
    }

    public static float getFloat(long address) {
        if (INTERNAL) {
            try {
                return (float) InternalUnsafe.GET_FLOAT.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getFloat(address);
    }

    public static void putFloat(long address, float value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_FLOAT.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putFloat(address, value);
    }

    public static short getShort(long address) {
        if (INTERNAL) {
            try {
                return (short) InternalUnsafe.GET_SHORT.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getShort(address);
    }

    public static void putShort(long address, short value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_SHORT.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putShort(address, value);
    }

    public static char getChar(long address) {
        if (INTERNAL) {
            try {
                return (char) InternalUnsafe.GET_CHAR.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getChar(address);
    }

    public static void putChar(long address, char value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_CHAR.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putChar(address, value);
    }

    public static byte getByte(long address) {
        if (INTERNAL) {
            try {
                return (byte) InternalUnsafe.GET_BYTE.invokeExact(address);
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getByte(address);
    }

    public static void putByte(long address, byte value) {
        if (INTERNAL) {
            try {
                InternalUnsafe.PUT_BYTE.invokeExact(address, value);
                return;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        UNSAFE.putByte(address, value);
    }

    /** A boolean as the JVM and the FFM API store it: one byte, 1 or 0; any non-zero byte reads as true. */
    public static boolean getBoolean(long address) {
        if (INTERNAL) {
            try {
                return (byte) InternalUnsafe.GET_BYTE.invokeExact(address) != 0;
            } catch (Throwable thrown) {
                throw InternalUnsafe.rethrow(thrown);
            }
        }
        return UNSAFE.getByte(address) != 0;
    }

    /**
     * Stores {@code value} at {@code address} as one byte (1 or 0). Called by name from the copy code that core
     * generates ({@code SegmentAccess}: {@code "put" + type name}), never from Java source: no caller shows in a search.
     */
    public static void putBoolean(long address, boolean value) {
        putByte(address, value ? (byte) 1 : (byte) 0);
    }
}
