package io.blit.layout;

/** The eight primitive field types, with the size a field of each occupies inside an object. */
public enum FieldType {
    BOOLEAN(boolean.class, 1),
    BYTE(byte.class, 1),
    CHAR(char.class, 2),
    SHORT(short.class, 2),
    INT(int.class, 4),
    FLOAT(float.class, 4),
    LONG(long.class, 8),
    DOUBLE(double.class, 8);

    private final Class<?> javaType;
    private final int size;

    FieldType(Class<?> javaType, int size) {
        this.javaType = javaType;
        this.size = size;
    }

    /** The primitive class, e.g. {@code int.class}. */
    public Class<?> javaType() {
        return javaType;
    }

    /** Bytes a field of this type occupies in a HotSpot object. */
    public int size() {
        return size;
    }

    /** The Java keyword, e.g. {@code "int"}. */
    public String keyword() {
        return javaType.getName();
    }

    /**
     * The field type of a primitive class.
     *
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
