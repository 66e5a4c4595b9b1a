package io.blit.core.internal;

import io.blit.core.IncompatibleLayoutException;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import java.nio.ByteOrder;
import java.util.List;

/** Builds the exceptions of the copy paths, so that messages read alike and name the values involved. */
public final class CopyErrors {
    private CopyErrors() {
    }

    public static IndexOutOfBoundsException outOfBounds(long offset, long length, long capacity) {
        return new IndexOutOfBoundsException("offset=" + offset + " length=" + length + " capacity=" + capacity);
    }

    public static IndexOutOfBoundsException arrayRange(int from, int count, int arrayLength) {
        return new IndexOutOfBoundsException("array from=" + from + " count=" + count + " length=" + arrayLength);
    }

    public static IllegalArgumentException wrongClass(Class<?> expected, Object actual) {
        return new IllegalArgumentException("a copier for " + expected.getName() + " cannot copy an instance of "
                + actual.getClass().getName() + ": only the exact class has this layout; use BlockCopier.of("
                + actual.getClass().getSimpleName() + ".class)");
    }

    public static NullPointerException nullElement(String array, int index) {
        return new NullPointerException(array + "[" + index + "] is null");
    }

    public static UnsupportedOperationException unsafeDenied(String engine) {
        return new UnsupportedOperationException("the " + engine + " engine needs sun.misc.Unsafe memory access, which this JVM"
                + " denies (--sun-misc-unsafe-memory-access=deny): use CopyEngine.GENERATED_FFM, or BlockCopier.of(type),"
                + " which picks it by itself, or export the JDK's own Unsafe to Blit"
                + " (--add-exports java.base/jdk.internal.misc=ALL-UNNAMED), which works in every mode");
    }

    public static IllegalArgumentException noPrivateAccessUnsafeDenied(Class<?> type, IllegalAccessException cause) {
        return new IllegalArgumentException("Blit cannot copy " + type.getName() + " in this JVM: sun.misc.Unsafe memory"
                + " access is denied (--sun-misc-unsafe-memory-access=deny), so the only engine is GENERATED_FFM, which"
                + " needs private access to the class's fields: open its package to Blit (module-info: opens "
                + type.getPackageName() + " to io.blit.core;), or export the JDK's own Unsafe to Blit"
                + " (--add-exports java.base/jdk.internal.misc=ALL-UNNAMED) for the word loop", cause);
    }

    public static IllegalArgumentException noPrivateAccess(Class<?> type, IllegalAccessException cause) {
        return new IllegalArgumentException("the GENERATED engine needs private access to the fields of " + type.getName()
                + ": open its package to Blit (module-info: opens " + type.getPackageName() + " to io.blit.core;)"
                + " or use CopyEngine.WORD_LOOP", cause);
    }

    // ---- reading across layouts

    public static IncompatibleLayoutException strictRefusal(LayoutComparison comparison, ByteOrder writerOrder, ByteOrder readerOrder) {
        String className = comparison.reader().className();
        String byteOrder = className + ": byte order changed from " + writerOrder + " (writer) to " + readerOrder + " (reader)";
        String why;
        if (comparison.identical()) {
            why = "field offsets agree (fingerprint " + comparison.writer().fingerprint() + ") but " + byteOrder;
        } else {
            why = comparison.report() + (writerOrder.equals(readerOrder) ? "" : "\n  " + byteOrder);
        }
        return new IncompatibleLayoutException("cannot read " + className + " under LayoutPolicy.STRICT: " + why, comparison);
    }

    public static IncompatibleLayoutException typesChanged(LayoutComparison comparison, List<String> changes) {
        return new IncompatibleLayoutException("cannot read " + comparison.reader().className() + " from blocks written as "
                + comparison.writer().className() + " [fingerprint " + comparison.writer().fingerprint() + ", "
                + comparison.writer().jvm().headerMode() + "]: Blit translates fields by name but never converts a type; "
                + String.join("; ", changes), comparison);
    }

    public static String typeChanged(String className, FieldDescriptor writer, FieldDescriptor reader) {
        return className + ": field '" + reader.name() + "' type changed from " + writer.type().keyword() + " (writer, "
                + writer + ") to " + reader.type().keyword() + " (reader, " + reader + ")";
    }

    public static IncompatibleLayoutException duplicateWriterField(LayoutComparison comparison, FieldDescriptor first, FieldDescriptor second) {
        LayoutDescriptor writer = comparison.writer();
        return new IncompatibleLayoutException("cannot read " + comparison.reader().className() + " from blocks written as "
                + writer.className() + ": the writer's layout has two fields named '" + first.name() + "' (" + first + " and "
                + second + "), so fields cannot be matched by name", comparison);
    }
}
