package io.blit.layout;

import java.util.Objects;

/**
 * One instance field of a trivially copyable class and where it lies inside the object.
 *
 * @param name           the field's name
 * @param declaringClass the class of the hierarchy that declares it
 * @param type           its primitive type
 * @param offset         its byte offset from the start of the object (not of the block)
 */
public record FieldSlot(String name, Class<?> declaringClass, FieldType type, int offset) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException     if any reference is null
     * @throws IllegalArgumentException if the offset is negative or the name empty
     */
    public FieldSlot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(declaringClass, "declaringClass");
        Objects.requireNonNull(type, "type");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("field name is empty in " + declaringClass.getName());
        }
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset + " for field " + name);
        }
    }

    /** {@return the number of bytes the field occupies} */
    public int size() {
        return type.size();
    }

    /** {@return the first offset after the field} */
    public int end() {
        return offset + type.size();
    }

    /** {@code Host.name @offset (type, size)}, so that every message that names a field says where it is. */
    @Override
    public String toString() {
        return declaringClass.getSimpleName() + "." + name + " @" + offset + " (" + type.keyword() + ", " + size() + ")";
    }
}
