package io.blit.core;

import io.blit.layout.FieldType;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic field values for reading across layouts, chosen so that a field read from the wrong
 * bytes cannot pass: they depend only on the class's simple name, the field's name and a record
 * number, never on the layout, so a writer and a reader in different JVM modes agree on them.
 *
 * <ul>
 *   <li>Record 0: the fields, in name order, get consecutive bytes 1, 2, 3, ... (wrapping after 255,
 *       never 0): every byte of every field is distinct in blocks of up to 255 field bytes, so a
 *       field moved, swapped or shifted by any number of bytes reads a different value.</li>
 *   <li>Records 1 to {@link #RECORDS} - 1: pseudo-random bits per field.</li>
 *   <li>Booleans hold one bit: the k-th boolean in name order is bit r of k + 1 in record r, so across
 *       the records every boolean has its own pattern (up to 255 booleans) and none is always false.</li>
 *   <li>Floats and doubles never hold a NaN (its payload need not survive a register), so an
 *       all-ones exponent loses its top bit.</li>
 * </ul>
 */
final class DistinctValues {
    /** Records per class: enough bits to tell 255 booleans apart. */
    static final int RECORDS = 8;

    private DistinctValues() {
    }

    /** The instance fields of the hierarchy in name order (names are unique in a trivially copyable class). */
    static List<Field> byName(Class<?> type) {
        List<Field> fields = new ArrayList<>(RandomFields.fieldsOf(type));
        fields.sort(Comparator.comparing(Field::getName));
        return fields;
    }

    /** The raw bits (zero-extended, as {@link RandomFields#rawBits}) of every field of {@code type} in record {@code record}, in name order. */
    static long[] bits(Class<?> type, int record) {
        List<Field> fields = byName(type);
        long[] bits = new long[fields.size()];
        SplittableRandom random = new SplittableRandom(type.getSimpleName().hashCode() * 1_000_003L + record);
        int nextByte = 0;
        int booleanIndex = 0;
        for (int k = 0; k < fields.size(); k++) {
            FieldType fieldType = RandomFields.typeOf(fields.get(k));
            long value;
            if (fieldType == FieldType.BOOLEAN) {
                value = ((booleanIndex + 1) >> record) & 1;
                booleanIndex++;
            } else if (record == 0) {
                value = 0;
                for (int j = 0; j < fieldType.size(); j++) {
                    value |= (long) (1 + (nextByte++ % 255)) << (8 * j);
                }
            } else {
                value = random.nextLong();
            }
            bits[k] = notNaN(fieldType, truncate(fieldType, value));
        }
        return bits;
    }

    /** Sets every field of {@code object} to record {@code record}'s values. */
    static void fill(Object object, int record) {
        List<Field> fields = byName(object.getClass());
        long[] bits = bits(object.getClass(), record);
        for (int k = 0; k < fields.size(); k++) {
            RandomFields.setRawBits(fields.get(k), object, bits[k]);
        }
    }

    /**
     * The fields of {@code object} whose bits differ from record {@code record}'s, as
     * {@code name expected=0x.. actual=0x..}; empty when every field is exact.
     */
    static List<String> mismatches(Object object, int record) {
        List<Field> fields = byName(object.getClass());
        long[] bits = bits(object.getClass(), record);
        List<String> wrong = new ArrayList<>();
        for (int k = 0; k < fields.size(); k++) {
            long actual = RandomFields.rawBits(fields.get(k), object);
            if (actual != bits[k]) {
                wrong.add(fields.get(k).getName() + " expected=0x" + Long.toHexString(bits[k]) + " actual=0x" + Long.toHexString(actual));
            }
        }
        return wrong;
    }

    private static long truncate(FieldType type, long value) {
        return type.size() == 8 ? value : value & ((1L << (8 * type.size())) - 1);
    }

    private static long notNaN(FieldType type, long bits) {
        if (type == FieldType.FLOAT && (bits & 0x7F80_0000L) == 0x7F80_0000L) {
            return bits & ~0x4000_0000L;
        }
        if (type == FieldType.DOUBLE && (bits & 0x7FF0_0000_0000_0000L) == 0x7FF0_0000_0000_0000L) {
            return bits & ~0x4000_0000_0000_0000L;
        }
        return bits;
    }
}
