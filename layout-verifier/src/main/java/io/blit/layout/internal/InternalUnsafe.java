package io.blit.layout.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The JDK's own {@code jdk.internal.misc.Unsafe}, reached through method handles, for a JVM whose {@code java.base}
 * exports {@code jdk.internal.misc} to this class's module: {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}
 * on the class path ({@code =io.blit.layout} on the module path), or {@code Add-Exports: java.base/jdk.internal.misc} in
 * the manifest of a jar started with {@code -jar}. That class is the one {@code sun.misc.Unsafe} delegates to, with
 * the same intrinsics, but it prints no "terminally deprecated" warning and ignores
 * {@code --sun-misc-unsafe-memory-access=deny} (JEP 498 governs only {@code sun.misc.Unsafe}); Aeron needs the same
 * export.
 *
 * <p>Why method handles: the package is not exported at compile time, and {@code javac --release} refuses to export
 * it. A method handle in a {@code static final} field is a constant to C2, which inlines {@code invokeExact} through
 * it to the intrinsic: compiled code is the same as a direct call (measured in {@code docs/copy-engine.md}).
 *
 * <p>{@link #AVAILABLE} is decided once, when this class initialises; every handle is null when it is false and is
 * then never used ({@link UnsafeAccess} branches on a constant). Checks nothing, like {@link UnsafeAccess}.
 */
final class InternalUnsafe {
    /** Whether {@code jdk.internal.misc} is exported to this module and its {@code Unsafe} was found. */
    static final boolean AVAILABLE;
    static final MethodHandle OBJECT_FIELD_OFFSET;
    static final MethodHandle GET_LONG_OBJECT;
    static final MethodHandle PUT_LONG_OBJECT;
    static final MethodHandle GET_INT_OBJECT;
    static final MethodHandle PUT_INT_OBJECT;
    static final MethodHandle GET_SHORT_OBJECT;
    static final MethodHandle PUT_SHORT_OBJECT;
    static final MethodHandle GET_BYTE_OBJECT;
    static final MethodHandle PUT_BYTE_OBJECT;
    static final MethodHandle GET_LONG;
    static final MethodHandle PUT_LONG;
    static final MethodHandle GET_DOUBLE;
    static final MethodHandle PUT_DOUBLE;
    static final MethodHandle GET_INT;
    static final MethodHandle PUT_INT;
    static final MethodHandle GET_FLOAT;
    static final MethodHandle PUT_FLOAT;
    static final MethodHandle GET_SHORT;
    static final MethodHandle PUT_SHORT;
    static final MethodHandle GET_CHAR;
    static final MethodHandle PUT_CHAR;
    static final MethodHandle GET_BYTE;
    static final MethodHandle PUT_BYTE;

    private static final String PACKAGE = "jdk.internal.misc";

    static {
        Handles handles = Handles.find();
        OBJECT_FIELD_OFFSET = handle(handles, "objectFieldOffset", long.class, Field.class);
        GET_LONG_OBJECT = handle(handles, "getLong", long.class, Object.class, long.class);
        PUT_LONG_OBJECT = handle(handles, "putLong", void.class, Object.class, long.class, long.class);
        GET_INT_OBJECT = handle(handles, "getInt", int.class, Object.class, long.class);
        PUT_INT_OBJECT = handle(handles, "putInt", void.class, Object.class, long.class, int.class);
        GET_SHORT_OBJECT = handle(handles, "getShort", short.class, Object.class, long.class);
        PUT_SHORT_OBJECT = handle(handles, "putShort", void.class, Object.class, long.class, short.class);
        GET_BYTE_OBJECT = handle(handles, "getByte", byte.class, Object.class, long.class);
        PUT_BYTE_OBJECT = handle(handles, "putByte", void.class, Object.class, long.class, byte.class);
        GET_LONG = handle(handles, "getLong", long.class, long.class);
        PUT_LONG = handle(handles, "putLong", void.class, long.class, long.class);
        GET_DOUBLE = handle(handles, "getDouble", double.class, long.class);
        PUT_DOUBLE = handle(handles, "putDouble", void.class, long.class, double.class);
        GET_INT = handle(handles, "getInt", int.class, long.class);
        PUT_INT = handle(handles, "putInt", void.class, long.class, int.class);
        GET_FLOAT = handle(handles, "getFloat", float.class, long.class);
        PUT_FLOAT = handle(handles, "putFloat", void.class, long.class, float.class);
        GET_SHORT = handle(handles, "getShort", short.class, long.class);
        PUT_SHORT = handle(handles, "putShort", void.class, long.class, short.class);
        GET_CHAR = handle(handles, "getChar", char.class, long.class);
        PUT_CHAR = handle(handles, "putChar", void.class, long.class, char.class);
        GET_BYTE = handle(handles, "getByte", byte.class, long.class);
        PUT_BYTE = handle(handles, "putByte", void.class, long.class, byte.class);
        AVAILABLE = handles != null && Stream.of(OBJECT_FIELD_OFFSET, GET_LONG_OBJECT, PUT_LONG_OBJECT, GET_INT_OBJECT,
                PUT_INT_OBJECT, GET_SHORT_OBJECT, PUT_SHORT_OBJECT, GET_BYTE_OBJECT, PUT_BYTE_OBJECT, GET_LONG, PUT_LONG,
                GET_DOUBLE, PUT_DOUBLE, GET_INT, PUT_INT, GET_FLOAT, PUT_FLOAT, GET_SHORT, PUT_SHORT, GET_CHAR, PUT_CHAR,
                GET_BYTE, PUT_BYTE).allMatch(Objects::nonNull);
    }

    private InternalUnsafe() {
    }

    /** The lookup, the class and the instance, or null where the package is not exported to this module. */
    private record Handles(MethodHandles.Lookup lookup, Class<?> type, Object unsafe) {
        static Handles find() {
            if (!Object.class.getModule().isExported(PACKAGE, InternalUnsafe.class.getModule())) {
                return null;
            }
            try {
                Class<?> type = Class.forName(PACKAGE + ".Unsafe");
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                Object unsafe = lookup.findStatic(type, "getUnsafe", MethodType.methodType(type)).invoke();
                return new Handles(lookup, type, unsafe);
            } catch (Throwable notThisJdk) {
                // A JDK whose internal class has another shape: fall back to sun.misc.Unsafe, as without the export.
                return null;
            }
        }
    }

    /**
     * The instance method {@code name} bound to the JDK's Unsafe, typed {@code (parameters) -> returned}; null where
     * there is no Unsafe or no such method (a JDK whose internal class has another shape: {@link #AVAILABLE} is then
     * false and sun.misc.Unsafe is used, as without the export).
     */
    private static MethodHandle handle(Handles handles, String name, Class<?> returned, Class<?>... parameters) {
        if (handles == null) {
            return null;
        }
        try {
            return handles.lookup().findVirtual(handles.type(), name, MethodType.methodType(returned, parameters))
                    .bindTo(handles.unsafe());
        } catch (ReflectiveOperationException otherShape) {
            return null;
        }
    }

    /** Rethrows what a handle threw: only unchecked exceptions and errors, since the JDK's methods declare none. */
    static RuntimeException rethrow(Throwable thrown) {
        if (thrown instanceof RuntimeException unchecked) {
            return unchecked;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(thrown);
    }
}
