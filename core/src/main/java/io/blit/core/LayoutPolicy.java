package io.blit.core;

/**
 * What a {@link BlockReader} does when the layout a block was written with differs from the reading
 * class's layout in this JVM. When the two layouts are identical (same fingerprint, same byte order)
 * both policies read with one bulk copy.
 */
public enum LayoutPolicy {
    /**
     * Refuse any difference: {@link BlockReader#of} throws {@link IncompatibleLayoutException} listing
     * every differing field (moved, missing, extra, retyped) and a changed block length or byte order.
     * For readers that must never pay for a translation, or that treat any layout drift as an error.
     */
    STRICT,

    /**
     * Translate, matching fields by name: a field of both layouts is moved from the writer's offset to
     * the reader's (byte-swapped if the writer's byte order differs), a field only the reader has is
     * read as zero ({@code false}, {@code 0}, {@code 0.0}), a field only the writer has is ignored. A
     * field of both layouts whose type differs is still refused, at construction.
     */
    TRANSLATE
}
