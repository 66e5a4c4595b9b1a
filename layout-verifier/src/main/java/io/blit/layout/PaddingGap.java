package io.blit.layout;

/**
 * Bytes inside a field block that belong to no field. A bulk copy carries them too; their content
 * is whatever the object holds there (zero for objects the JVM allocated and Blit filled).
 *
 * @param offset the first padding byte, from the start of the object
 * @param length how many bytes, at least 1
 */
public record PaddingGap(int offset, int length) {
    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException if the offset is negative or the length not positive
     */
    public PaddingGap {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("invalid padding gap offset=" + offset + " length=" + length);
        }
    }

    @Override
    public String toString() {
        return "padding @" + offset + " (" + length + ")";
    }
}
