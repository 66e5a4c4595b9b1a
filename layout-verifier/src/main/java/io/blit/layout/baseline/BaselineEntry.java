package io.blit.layout.baseline;

import io.blit.layout.BlockLayout;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import java.util.Objects;

/**
 * One entry of a {@link Baseline}: the layout of one class in one {@link JvmMode}.
 *
 * <p>Immutable and thread-safe. The layout is a {@link LayoutDescriptor}, so an entry is
 * self-consistent (fields sorted and non-overlapping, start, length and fingerprint derived from
 * them) whether measured or parsed from a file. A parsed entry carries {@linkplain #nominalFacts
 * nominal JVM facts} for its mode (a baseline file records the mode, not the JVM's name or version);
 * compare entries with {@link #sameLayout(BaselineEntry)}, which ignores JVM facts.
 *
 * @param mode   the JVM mode the layout was measured in
 * @param layout the class's layout in that mode
 */
public record BaselineEntry(JvmMode mode, LayoutDescriptor layout) {

    /**
     * Checks the components.
     *
     * @throws NullPointerException if a component is null
     */
    public BaselineEntry {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(layout, "layout");
    }

    /**
     * {@return the entry of a measured layout}
     *
     * @param mode   the JVM mode it was measured in
     * @param layout the measured layout
     */
    public static BaselineEntry of(JvmMode mode, BlockLayout layout) {
        return new BaselineEntry(mode, layout.descriptor());
    }

    /** {@return the binary name of the class} */
    public String className() {
        return layout.className();
    }

    /**
     * Whether both entries record the same block: same start, length, and fields (name, declaring
     * class, type, absolute offset). JVM names and versions are not compared.
     *
     * @param other the entry to compare with
     * @return whether both record the same block of the same class
     */
    public boolean sameLayout(BaselineEntry other) {
        return layout.className().equals(other.layout.className())
                && layout.start() == other.layout.start()
                && layout.length() == other.layout.length()
                && layout.fields().equals(other.layout.fields());
    }

    /**
     * The JVM facts a baseline file implies for a mode: its header size and flags, alignment 8, VM
     * name {@code "baseline"}. Used only to build descriptors of parsed entries; never compared.
     */
    static JvmFacts nominalFacts(JvmMode mode) {
        return switch (mode) {
            case DEFAULT -> new JvmFacts(12, false, true, 8, "baseline", "");
            case COMPACT_HEADERS -> new JvmFacts(8, true, true, 8, "baseline", "");
            case UNCOMPRESSED_CLASS_POINTERS -> new JvmFacts(16, false, false, 8, "baseline", "");
        };
    }

    @Override
    public String toString() {
        return className() + " [" + mode.id() + "]";
    }
}
