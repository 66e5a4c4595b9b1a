package io.blit.layout;

/** The eight primitive field types, with the size a field of each occupies inside an object. */
public enum FieldType {
    /** {@code boolean}, 1 byte. */
    BOOLEAN(boolean.class, 1),
    /** {@code byte}, 1 byte. */
    BYTE(byte.class, 1),
    /** {@code char}, 2 bytes. */
    CHAR(char.class, 2),
    /** {@code short}, 2 bytes. */
    SHORT(short.class, 2),
    /** {@code int}, 4 bytes. */
    INT(int.class, 4),
    /** {@code float}, 4 bytes. */
    FLOAT(float.class, 4),
    /** {@code long}, 8 bytes. */
    LONG(long.class, 8),
    /** {@code double}, 8 bytes. */
    DOUBLE(double.class, 8);

    private final Class<?> javaType;
    private final int size;

    FieldType(Class<?> javaType, int size) {
        this.javaType = javaType;
        this.size = size;
    }

    /** {@return the primitive class, e.g. {@code int.class}} */
    public Class<?> javaType() {
        return javaType;
    }

    /** {@return the number of bytes a field of this type occupies in a HotSpot object} */
    public int size() {
        return size;
    }

    /** {@return the Java keyword, e.g. {@code "int"}} */
    public String keyword() {
        return javaType.getName();
    }

    /**
     * The field type of a primitive class.
     *
     * @param type a primitive class, e.g. {@code int.class}
     * @return its field type
     * @throws IllegalArgumentException if {@code type} is not one of the eight primitive types
     */
    public static FieldType of(Class<?> type) {
        for (FieldType t : values()) {
            if (t.javaType == type) {
                return t;
            }
        }
        throw new IllegalArgumentException("not a primitive field type: " + type.getTypeName());
    }
}
