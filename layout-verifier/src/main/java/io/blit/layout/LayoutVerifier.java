package io.blit.layout;

import io.blit.layout.internal.UnsafeAccess;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides whether a class is trivially copyable and, if so, measures its {@link BlockLayout}.
 *
 * <p>A class is trivially copyable when it is a concrete or abstract class (not an interface, array,
 * primitive, record, enum or hidden class) whose whole hierarchy declares at least one instance field
 * and only instance fields that are
 * <ul>
 *   <li>of a primitive type (a reference of any kind, including the hidden {@code this$0} of an
 *       inner class, is rejected),</li>
 *   <li>not {@code final} (reading a block writes the fields in place; the JIT may have folded the
 *       values of final fields, and records' fields are always trusted as constants),</li>
 *   <li>uniquely named across the hierarchy (names identify fields in fingerprints and descriptors).</li>
 * </ul>
 * Static fields are ignored. Field modifiers such as {@code volatile} or {@code transient} make no
 * difference: the block holds every instance field.
 *
 * <p>Offsets are the running JVM's own ({@code Unsafe.objectFieldOffset}) where {@code sun.misc.Unsafe}
 * memory access is allowed; under {@code --sun-misc-unsafe-memory-access=deny}, where no supported API
 * discloses them, they come from {@code HotSpotLayoutModel}, a model of HotSpot's layout algorithm
 * that the test suite checks against the real offsets (same {@link BlockLayout}, same fingerprint).
 * Either way they are computed once per class and cached for the life of the class
 * ({@link ClassValue}); later calls do no reflection.
 *
 * <p>Thread-safe.
 */
public final class LayoutVerifier {
    /** Holds either the layout or the rejection of each class, so that a bad class fails the same way every time. */
    private static final ClassValue<Object> VERDICTS = new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> type) {
            try {
                return measure(type);
            } catch (NotTriviallyCopyableException e) {
                return e;
            }
        }
    };

    private LayoutVerifier() {
    }

    /**
     * The block layout of {@code type} in this JVM.
     *
     * @param type the class to verify
     * @return its block layout, measured once per class and cached
     * @throws NullPointerException           if {@code type} is null
     * @throws NotTriviallyCopyableException  if the class is not trivially copyable; the message names
     *                                        the class and every offending field with its type and offset
     * @throws UnsupportedOperationException  if Unsafe memory access is denied and the layout cannot be
     *                                        modelled (a non-HotSpot JVM, {@code @Contended} where honoured)
     */
    public static BlockLayout verify(Class<?> type) {
        Objects.requireNonNull(type, "type");
        Object verdict = VERDICTS.get(type);
        if (verdict instanceof BlockLayout layout) {
            return layout;
        }
        NotTriviallyCopyableException cached = (NotTriviallyCopyableException) verdict;
        // A fresh exception per call gives each caller its own stack trace; the message stays the same.
        throw new NotTriviallyCopyableException(cached.type(), cached.getMessage());
    }

    /**
     * {@return whether {@link #verify(Class)} would succeed}
     *
     * @param type the class to check
     * @throws NullPointerException if {@code type} is null
     */
    public static boolean isTriviallyCopyable(Class<?> type) {
        return VERDICTS.get(Objects.requireNonNull(type, "type")) instanceof BlockLayout;
    }

    private static BlockLayout measure(Class<?> type) {
        rejectNonClasses(type);
        List<FieldSlot> fields = new ArrayList<>();
        List<String> faults = new ArrayList<>();
        Map<String, FieldSlot> byName = new HashMap<>();
        Map<Field, Integer> modelled = UnsafeAccess.memoryAccessAllowed() ? null : HotSpotLayoutModel.instanceFieldOffsets(type);
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                long offset = modelled == null ? UnsafeAccess.objectFieldOffset(field) : modelled.get(field);
                if (!field.getType().isPrimitive()) {
                    faults.add(Rejections.referenceField(field, offset));
                    continue;
                }
                if (Modifier.isFinal(field.getModifiers())) {
                    faults.add(Rejections.finalField(field, offset));
                    continue;
                }
                FieldSlot slot = new FieldSlot(field.getName(), c, FieldType.of(field.getType()), Math.toIntExact(offset));
                FieldSlot earlier = byName.putIfAbsent(slot.name(), slot);
                if (earlier != null) {
                    faults.add(Rejections.duplicateName(field, offset, earlier));
                    continue;
                }
                fields.add(slot);
            }
        }
        if (!faults.isEmpty()) {
            throw Rejections.badFields(type, faults);
        }
        if (fields.isEmpty()) {
            throw Rejections.noFields(type);
        }
        if (modelled != null) {
            rejectUnmodellableFields(type, fields);
        }
        return BlockLayout.of(type, fields, JvmFacts.current());
    }

    /**
     * Under {@code deny}, offsets come from {@code HotSpotLayoutModel}, which cannot see the fields
     * HotSpot injects into some JDK classes nor their {@code @Contended} annotations: a block that
     * includes a JDK class's fields is refused rather than guessed.
     */
    private static void rejectUnmodellableFields(Class<?> type, List<FieldSlot> fields) {
        for (FieldSlot field : fields) {
            ClassLoader loader = field.declaringClass().getClassLoader();
            if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
                throw new UnsupportedOperationException("cannot determine the layout of " + type.getName()
                        + " with sun.misc.Unsafe memory access denied: it inherits fields from the JDK class "
                        + field.declaringClass().getName() + ", whose layout HotSpot may change with hidden fields;"
                        + " run with --sun-misc-unsafe-memory-access=allow");
            }
        }
    }

    private static void rejectNonClasses(Class<?> type) {
        if (type.isPrimitive()) {
            throw Rejections.notAClass(type, "a primitive type");
        }
        if (type.isArray()) {
            throw Rejections.notAClass(type, "an array type");
        }
        if (type.isInterface()) {
            throw Rejections.notAClass(type, type.isAnnotation() ? "an annotation interface" : "an interface");
        }
        if (type.isEnum() || (type.getSuperclass() != null && type.getSuperclass().isEnum())) {
            throw Rejections.notAClass(type, "an enum (its constants are shared singletons with a String name)");
        }
        if (type.isRecord()) {
            throw Rejections.record(type);
        }
        if (type.isHidden()) {
            throw Rejections.hidden(type);
        }
    }
}
