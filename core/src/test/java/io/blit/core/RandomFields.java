package io.blit.core;

import static org.junit.jupiter.api.Assertions.fail;

import io.blit.layout.FieldType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Fills, reads and compares the primitive instance fields of any object reflectively, as raw bits.
 *
 * <p>Values are handled as "raw bits": the field's bit pattern zero-extended to a long (a float is
 * {@link Float#floatToRawIntBits}, a boolean 0 or 1), so that NaN payloads and -0.0 compare exactly.
 * The generator is seeded and picks, for each field, an edge value of its type half of the time and
 * random bits otherwise.
 */
final class RandomFields {
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers())) {
                        field.setAccessible(true);
                        fields.add(field);
                    }
                }
            }
            return List.copyOf(fields);
        }
    };

    private final SplittableRandom random;

    RandomFields(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A new instance of {@code type} with every field filled. */
    <T> T newFilled(Class<T> type) {
        T object = newInstance(type);
        fill(object);
        return object;
    }

    /** Overwrites every instance field of {@code object}, superclasses' included. */
    void fill(Object object) {
        for (Field field : fieldsOf(object.getClass())) {
            FieldType type = typeOf(field);
            long[] edges = edgeBits(type);
            long bits = random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextLong();
            setRawBits(field, object, bits);
        }
    }

    /** Every instance field of the hierarchy, accessible. */
    static List<Field> fieldsOf(Class<?> type) {
        return FIELDS.get(type);
    }

    static Field field(Class<?> type, String name) {
        for (Field field : fieldsOf(type)) {
            if (field.getName().equals(name)) {
                return field;
            }
        }
        throw new IllegalArgumentException(type.getName() + " has no field " + name);
    }

    static FieldType typeOf(Field field) {
        return FieldType.of(field.getType());
    }

    static <T> T newInstance(Class<T> type) {
        try {
            Constructor<T> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot instantiate " + type.getName(), e);
        }
    }

    /** Edge values of each type, as raw bits: MIN/MAX, zero, all ones, NaNs with odd payloads, -0.0, infinities. */
    static long[] edgeBits(FieldType type) {
        return switch (type) {
            case BOOLEAN -> new long[] {0, 1};
            case BYTE -> new long[] {0, 0xFF, 0x80, 0x7F, 0x01};
            case CHAR, SHORT -> new long[] {0, 0xFFFF, 0x8000, 0x7FFF, 0xD800, 0x0001};
            case INT -> new long[] {0, 0xFFFF_FFFFL, 0x8000_0000L, 0x7FFF_FFFFL, 1};
            case LONG -> new long[] {0, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1};
            case FLOAT -> new long[] {
                    raw(Float.NaN), 0x7FC0_0001L, 0x7F80_0001L /* signalling */, 0xFFFF_FFFFL, 0xFFC1_2345L,
                    raw(-0.0f), raw(0.0f), raw(Float.POSITIVE_INFINITY), raw(Float.NEGATIVE_INFINITY),
                    raw(Float.MIN_VALUE), raw(Float.MAX_VALUE), raw(-Float.MAX_VALUE), raw(Float.MIN_NORMAL)};
            case DOUBLE -> new long[] {
                    raw(Double.NaN), 0x7FF8_0000_0000_0001L, 0x7FF0_0000_0000_0001L /* signalling */, -1L,
                    0xFFF8_DEAD_BEEF_CAFEL, raw(-0.0), raw(0.0), raw(Double.POSITIVE_INFINITY),
                    raw(Double.NEGATIVE_INFINITY), raw(Double.MIN_VALUE), raw(Double.MAX_VALUE),
                    raw(-Double.MAX_VALUE), raw(Double.MIN_NORMAL)};
        };
    }

    private static long raw(float value) {
        return Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
    }

    private static long raw(double value) {
        return Double.doubleToRawLongBits(value);
    }

    /** The bit pattern of {@code field} in {@code object}, zero-extended. */
    static long rawBits(Field field, Object object) {
        try {
            return switch (typeOf(field)) {
                case BOOLEAN -> field.getBoolean(object) ? 1 : 0;
                case BYTE -> field.getByte(object) & 0xFFL;
                case CHAR -> field.getChar(object);
                case SHORT -> field.getShort(object) & 0xFFFFL;
                case INT -> field.getInt(object) & 0xFFFF_FFFFL;
                case FLOAT -> Float.floatToRawIntBits(field.getFloat(object)) & 0xFFFF_FFFFL;
                case LONG -> field.getLong(object);
                case DOUBLE -> Double.doubleToRawLongBits(field.getDouble(object));
            };
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** Sets {@code field} to the low bits of {@code bits} (a boolean to its lowest bit). */
    static void setRawBits(Field field, Object object, long bits) {
        try {
            switch (typeOf(field)) {
                case BOOLEAN -> field.setBoolean(object, (bits & 1) != 0);
                case BYTE -> field.setByte(object, (byte) bits);
                case CHAR -> field.setChar(object, (char) bits);
                case SHORT -> field.setShort(object, (short) bits);
                case INT -> field.setInt(object, (int) bits);
                case FLOAT -> field.setFloat(object, Float.intBitsToFloat((int) bits));
                case LONG -> field.setLong(object, bits);
                case DOUBLE -> field.setDouble(object, Double.longBitsToDouble(bits));
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** The raw bits of every field, by name, in hierarchy order. */
    static Map<String, Long> snapshot(Object object) {
        Map<String, Long> bits = new LinkedHashMap<>();
        for (Field field : fieldsOf(object.getClass())) {
            bits.put(field.getName(), rawBits(field, object));
        }
        return bits;
    }

    /** Fails unless both objects are of the same class and every field has the same bits. */
    static void assertSameBits(Object expected, Object actual) {
        assertSameBits(expected, actual, "");
    }

    static void assertSameBits(Object expected, Object actual, String context) {
        if (expected.getClass() != actual.getClass()) {
            fail(context + "class " + actual.getClass().getName() + " instead of " + expected.getClass().getName());
        }
        for (Field field : fieldsOf(expected.getClass())) {
            long want = rawBits(field, expected);
            long got = rawBits(field, actual);
            if (want != got) {
                fail(context + expected.getClass().getSimpleName() + "." + field.getName() + " (" + field.getType()
                        + "): expected bits 0x" + Long.toHexString(want) + " but was 0x" + Long.toHexString(got));
            }
        }
    }

    /** 16 hex digits identifying the name and raw bits of every field (SHA-256 prefix). */
    static String digest(Object object) {
        StringBuilder canonical = new StringBuilder(object.getClass().getName());
        snapshot(object).forEach((name, bits) -> canonical.append(';').append(name).append('=').append(Long.toHexString(bits)));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
