package io.blit.layout;

/**
 * One way in which a reader's layout differs from the layout a block was written with. Offsets are
 * relative to each block's start, since that is what a bulk copy of the block preserves. Each
 * {@code toString()} names the class, the field and the old (writer's) and new (reader's) values.
 * Immutable and thread-safe.
 */
public sealed interface LayoutDifference {

    /** {@return the reader's class name, which every message names} */
    String className();

    /**
     * The writer has a field the reader lacks; its bytes would be dropped.
     *
     * @param className            the reader's class name
     * @param writerField          the writer's field
     * @param writerRelativeOffset its offset relative to the writer's block start
     */
    record MissingInReader(String className, FieldDescriptor writerField, int writerRelativeOffset) implements LayoutDifference {
        @Override
        public String toString() {
            return className + ": field '" + writerField.name() + "' (" + writerField.type().keyword() + " at +"
                    + writerRelativeOffset + ", " + writerField + ") is missing in the reader";
        }
    }

    /**
     * The reader has a field the writer lacks; it would be filled from whatever bytes lie there.
     *
     * @param className            the reader's class name
     * @param readerField          the reader's field
     * @param readerRelativeOffset its offset relative to the reader's block start
     */
    record ExtraInReader(String className, FieldDescriptor readerField, int readerRelativeOffset) implements LayoutDifference {
        @Override
        public String toString() {
            return className + ": field '" + readerField.name() + "' (" + readerField.type().keyword() + " at +"
                    + readerRelativeOffset + ", " + readerField + ") is extra in the reader, the writer has no such field";
        }
    }

    /**
     * A field of both layouts whose type differs.
     *
     * @param className  the reader's class name
     * @param field      the field's name
     * @param writerType its type in the writer's layout
     * @param readerType its type in the reader's layout
     */
    record TypeChanged(String className, String field, FieldType writerType, FieldType readerType) implements LayoutDifference {
        @Override
        public String toString() {
            return className + ": field '" + field + "' type changed from " + writerType.keyword() + " (writer) to "
                    + readerType.keyword() + " (reader)";
        }
    }

    /**
     * A field of both layouts at a different offset relative to the block's start.
     *
     * @param className            the reader's class name
     * @param field                the field's name
     * @param writerRelativeOffset its offset relative to the writer's block start
     * @param readerRelativeOffset its offset relative to the reader's block start
     */
    record OffsetChanged(String className, String field, int writerRelativeOffset, int readerRelativeOffset) implements LayoutDifference {
        @Override
        public String toString() {
            return className + ": field '" + field + "' moved from +" + writerRelativeOffset + " (writer) to +"
                    + readerRelativeOffset + " (reader), relative to the block start";
        }
    }

    /**
     * The blocks differ in length, so a record of one does not even have the size of the other.
     *
     * @param className    the reader's class name
     * @param writerLength the writer's block length in bytes
     * @param readerLength the reader's block length in bytes
     */
    record LengthChanged(String className, int writerLength, int readerLength) implements LayoutDifference {
        @Override
        public String toString() {
            return className + ": block length changed from " + writerLength + " (writer) to " + readerLength + " (reader)";
        }
    }
}
