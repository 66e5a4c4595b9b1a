package io.blit.layout;

import java.util.Objects;

/**
 * One field of a {@link LayoutDescriptor}: a {@link FieldSlot} without the {@code Class} object, so
 * that it can be stored in a file and read back by a process that does not have the class.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name               the field's name
 * @param declaringClassName the binary name ({@link Class#getName()}) of the class that declares it
 * @param type               its primitive type
 * @param offset             its byte offset from the start of the object (not of the block)
 */
public record FieldDescriptor(String name, String declaringClassName, FieldType type, int offset) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException     if any reference is null
     * @throws IllegalArgumentException if a name is empty, or the offset negative or so large that the field's end overflows an int
     */
    public FieldDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(declaringClassName, "declaringClassName");
        Objects.requireNonNull(type, "type");
        if (declaringClassName.isEmpty()) {
            throw new IllegalArgumentException("declaring class name is empty for field " + name);
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("field name is empty in " + declaringClassName);
        }
        if (offset < 0 || offset > Integer.MAX_VALUE - type.size()) {
            throw new IllegalArgumentException("offset " + offset + " out of range for field " + declaringClassName + "." + name);
        }
    }

    /**
     * {@return the class-free form of a field slot}
     *
     * @param slot a field of a measured layout
     */
    public static FieldDescriptor of(FieldSlot slot) {
        return new FieldDescriptor(slot.name(), slot.declaringClass().getName(), slot.type(), slot.offset());
    }

    /** {@return the number of bytes the field occupies} */
    public int size() {
        return type.size();
    }

    /** {@return the first offset after the field} */
    public int end() {
        return offset + type.size();
    }

    /** {@return the declaring class's name without package or enclosing classes, as {@link Class#getSimpleName()}} */
    public String declaringSimpleName() {
        String simple = declaringClassName.substring(declaringClassName.lastIndexOf('.') + 1);
        return simple.substring(simple.lastIndexOf('$') + 1);
    }

    /** {@code Host.name @offset (type, size)}, as {@link FieldSlot#toString()}. */
    @Override
    public String toString() {
        return declaringSimpleName() + "." + name + " @" + offset + " (" + type.keyword() + ", " + size() + ")";
    }
}
