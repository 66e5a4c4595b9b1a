package io.blit.core;

import io.blit.layout.LayoutComparison;
import java.util.Objects;

/**
 * A block written under one layout cannot be read into a class under the {@link LayoutPolicy}
 * asked for: a field changed its type, the writer's layout names two fields alike, or the policy is
 * {@link LayoutPolicy#STRICT} and the layouts differ. Thrown when the {@link BlockReader} is built,
 * never per read. The message names the reader's class, each field involved, and the writer's and
 * reader's values (type, or offset relative to the block start).
 */
public final class IncompatibleLayoutException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient LayoutComparison comparison;

    /**
     * An exception with its explanation and the comparison behind it.
     *
     * @param message    the explanation, naming class and fields
     * @param comparison the field-by-field comparison of the two layouts
     */
    public IncompatibleLayoutException(String message, LayoutComparison comparison) {
        super(message);
        this.comparison = Objects.requireNonNull(comparison, "comparison");
    }

    /**
     * The field-by-field comparison of the writer's and the reader's layouts.
     *
     * @return the comparison; null in an exception that was deserialized (the comparison is not serialized)
     */
    public LayoutComparison comparison() {
        return comparison;
    }
}
