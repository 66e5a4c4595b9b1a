package io.blit.layout;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * HotSpot's instance field layout, computed from a class's declarations alone: the offsets the JVM
 * gives every instance field, without asking the JVM (no {@code sun.misc.Unsafe}). The verifier uses
 * it when {@code sun.misc.Unsafe} memory access is denied ({@code --sun-misc-unsafe-memory-access=deny}),
 * where no supported API discloses field offsets.
 *
 * <p>The model follows the field layout builder of HotSpot since JDK 15
 * ({@code FieldLayoutBuilder::compute_regular_layout} in {@code fieldLayoutBuilder.cpp}):
 * <ol>
 *   <li>The layout starts as the superclass's: a reserved header block {@code [0, headerSize)}, every
 *       inherited field at its offset, the holes between them free, and free space after the last.</li>
 *   <li>The class's own primitive fields, largest first (equal sizes in declaration order), then its
 *       reference fields in declaration order ({@code oopSize} bytes each), are placed one by one: in
 *       the <em>smallest</em> free hole below the end that holds the field at an offset aligned to its
 *       size (on equal sizes, the hole at the highest offset), else at the end (aligned up, the
 *       alignment gap becoming a free hole). When a field found no hole, the next field of the same
 *       size goes to the end without a search, as in HotSpot. If the superclass's last field is a
 *       reference, the references go first (HotSpot then merges the two oop maps).</li>
 * </ol>
 * Not modelled: {@code @Contended} (reflection does not show it; HotSpot honours it in JDK classes,
 * and in all classes with {@code -XX:-RestrictContended}, which this model therefore refuses with
 * {@link UnsupportedOperationException}), and fields that HotSpot injects into a few JDK classes
 * (invisible to reflection). Both matter only for fields declared by JDK classes: the verifier does
 * not trust the model for a class that inherits any (see {@link LayoutVerifier}).
 *
 * <p>The test suite checks the model against the real offsets ({@code Unsafe.objectFieldOffset}) for
 * every test shape in the three header modes ({@code HotSpotLayoutModelTest}).
 *
 * <p>Stateless and thread-safe.
 */
final class HotSpotLayoutModel {
    private HotSpotLayoutModel() {
    }

    /**
     * The offset of every instance field of {@code type}'s whole hierarchy, superclass fields first.
     *
     * @param type       the class whose instances are modelled
     * @param headerSize bytes of the object header, where fields may start: 8, 12 or 16
     * @param oopSize    bytes of a reference field: 4 with compressed oops, else 8
     * @param restrictContended {@code -XX:+RestrictContended} (the default): {@code @Contended} is
     *                   honoured only in JDK classes
     * @return each instance field (primitive or reference) with its byte offset from the start of the object,
     *         superclass fields first
     * @throws NullPointerException          if {@code type} is null
     * @throws IllegalArgumentException      if a size is not one HotSpot uses
     * @throws UnsupportedOperationException if {@code restrictContended} is false: {@code @Contended} fields,
     *                                       invisible to reflection, could then be anywhere
     */
    public static Map<Field, Integer> instanceFieldOffsets(Class<?> type, int headerSize, int oopSize, boolean restrictContended) {
        Objects.requireNonNull(type, "type");
        if (headerSize != 8 && headerSize != 12 && headerSize != 16) {
            throw new IllegalArgumentException("header size must be 8, 12 or 16: " + headerSize);
        }
        if (oopSize != 4 && oopSize != 8) {
            throw new IllegalArgumentException("reference size must be 4 or 8: " + oopSize);
        }
        if (!restrictContended) {
            // Reflection does not show @Contended (a JDK-internal annotation), so its effect cannot be modelled.
            throw new UnsupportedOperationException("cannot model the field layout of " + type.getName()
                    + " under -XX:-RestrictContended (@Contended fields may be anywhere); run without that flag"
                    + " or with --sun-misc-unsafe-memory-access=allow");
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            hierarchy.addFirst(c);
        }
        Map<Field, Integer> offsets = new LinkedHashMap<>();
        for (Class<?> c : hierarchy) {
            boolean superEndsWithReference = endsWithReference(offsets);
            Layout layout = new Layout(headerSize, offsets, oopSize);
            List<Field> own = instanceFields(c);
            List<Field> primitives = new ArrayList<>(own.stream().filter(f -> f.getType().isPrimitive()).toList());
            // List.sort is stable: equal sizes keep declaration order, as HotSpot's comparator does.
            primitives.sort(Comparator.comparingInt((Field f) -> size(f.getType(), oopSize)).reversed());
            List<Field> references = own.stream().filter(f -> !f.getType().isPrimitive()).toList();
            // HotSpot leads with references when the superclass's last field is one (one merged oop map).
            if (superEndsWithReference) {
                layout.addAll(references, offsets);
                layout.addAll(primitives, offsets);
            } else {
                layout.addAll(primitives, offsets);
                layout.addAll(references, offsets);
            }
        }
        return offsets;
    }

    /**
     * {@link #instanceFieldOffsets(Class, int, int, boolean)} for this JVM's header size, reference size
     * and {@code RestrictContended}, read from its flags ({@link JvmFacts#current()}).
     *
     * @param type the class whose instances are modelled
     * @return each instance field with its byte offset from the start of the object, superclass fields first
     * @throws UnsupportedOperationException if this JVM runs with {@code -XX:-RestrictContended}, or if
     *                                       Unsafe memory access is denied and the JVM is not HotSpot
     */
    public static Map<Field, Integer> instanceFieldOffsets(Class<?> type) {
        JvmFacts facts = JvmFacts.current();
        return instanceFieldOffsets(type, facts.objectHeaderSize(), HotSpotFlags.referenceSize(),
                HotSpotFlags.booleanFlag("RestrictContended", true));
    }

    private static boolean endsWithReference(Map<Field, Integer> inherited) {
        Field last = null;
        for (Map.Entry<Field, Integer> entry : inherited.entrySet()) {
            if (last == null || entry.getValue() > inherited.get(last)) {
                last = entry.getKey();
            }
        }
        return last != null && !last.getType().isPrimitive();
    }

    /** Bytes a field of this type occupies. */
    static int size(Class<?> fieldType, int oopSize) {
        if (!fieldType.isPrimitive()) {
            return oopSize;
        }
        return FieldType.of(fieldType).size();
    }

    private static List<Field> instanceFields(Class<?> c) {
        List<Field> fields = new ArrayList<>();
        for (Field field : c.getDeclaredFields()) { // HotSpot returns them in class-file order
            if (!Modifier.isStatic(field.getModifiers())) {
                fields.add(field);
            }
        }
        return fields;
    }

    /** One block of the layout: reserved header, a field, or free space. */
    private static final class Block {
        final boolean free;
        int offset;
        int size;

        Block(boolean free, int offset, int size) {
            this.free = free;
            this.offset = offset;
            this.size = size;
        }

        boolean fits(int size, int alignment) {
            int misalignment = offset % alignment;
            int adjustment = misalignment == 0 ? 0 : alignment - misalignment;
            return this.size >= (long) size + adjustment;
        }
    }

    /** The blocks of one class's layout in offset order; the last block is the free space at the end. */
    private static final class Layout {
        private static final int UNBOUNDED = Integer.MAX_VALUE;
        private final List<Block> blocks = new ArrayList<>();
        private final int oopSize;

        /** The superclass's layout: header, inherited fields, holes between them, free end. */
        Layout(int headerSize, Map<Field, Integer> inherited, int oopSize) {
            this.oopSize = oopSize;
            List<Block> taken = new ArrayList<>();
            taken.add(new Block(false, 0, headerSize));
            inherited.forEach((field, offset) -> taken.add(new Block(false, offset, size(field.getType(), oopSize))));
            taken.sort(Comparator.comparingInt(b -> b.offset));
            int end = 0;
            for (Block block : taken) {
                if (block.offset > end) {
                    blocks.add(new Block(true, end, block.offset - end));
                }
                blocks.add(block);
                end = block.offset + block.size;
            }
            blocks.add(new Block(true, end, UNBOUNDED));
        }

        /** Places {@code fields} in order, recording their offsets. */
        void addAll(List<Field> fields, Map<Field, Integer> offsets) {
            boolean lastSearchSucceeded = false;
            int lastSize = 0;
            for (Field field : fields) {
                int size = size(field.getType(), oopSize);
                int candidate;
                if (size == lastSize && !lastSearchSucceeded) {
                    candidate = blocks.size() - 1;
                } else {
                    lastSize = size;
                    candidate = smallestFittingHole(size);
                    lastSearchSucceeded = candidate >= 0;
                    if (candidate < 0) {
                        candidate = blocks.size() - 1;
                    }
                }
                offsets.put(field, place(candidate, size));
            }
        }

        /** The index of the smallest free hole before the end that fits; on ties the highest; -1 if none. */
        private int smallestFittingHole(int size) {
            int candidate = -1;
            for (int i = blocks.size() - 2; i > 0; i--) {
                Block block = blocks.get(i);
                if (block.free && block.fits(size, size) && (candidate < 0 || block.size < blocks.get(candidate).size)) {
                    candidate = i;
                }
            }
            return candidate;
        }

        /** Puts a field of {@code size} bytes (aligned to its size) at the start of free block {@code index}. */
        private int place(int index, int size) {
            Block slot = blocks.get(index);
            int misalignment = slot.offset % size;
            if (misalignment != 0) {
                int adjustment = size - misalignment;
                blocks.add(index, new Block(true, slot.offset, adjustment));
                index++;
                slot.offset += adjustment;
                slot.size -= adjustment;
            }
            int offset = slot.offset;
            blocks.add(index, new Block(false, offset, size));
            slot.offset += size;
            slot.size -= size;
            if (slot.size == 0) {
                blocks.remove(slot);
            }
            return offset;
        }
    }
}
