package io.blit.layout;

import java.lang.reflect.Field;
import java.util.List;

/** Builds every {@link NotTriviallyCopyableException} of the verifier, so that messages read alike. */
final class Rejections {
    private static final String FIX_REFERENCE = "only primitive instance fields can be copied as a block; "
            + "make it static or transient data elsewhere, or encode it in primitive fields";

    private Rejections() {
    }

    static NotTriviallyCopyableException notAClass(Class<?> type, String kind) {
        return new NotTriviallyCopyableException(type, type.getTypeName() + " is not trivially copyable: it is "
                + kind + "; only classes whose instances have primitive fields can be copied as a block");
    }

    static NotTriviallyCopyableException record(Class<?> type) {
        return new NotTriviallyCopyableException(type, type.getName() + " is not trivially copyable: it is a record; "
                + "its fields are final and the JIT may constant-fold them, so Blit never writes into them. "
                + "Use a class with non-final primitive fields");
    }

    static NotTriviallyCopyableException hidden(Class<?> type) {
        return new NotTriviallyCopyableException(type, type.getName()
                + " is not trivially copyable: it is a hidden class, whose field offsets the JVM does not disclose");
    }

    static NotTriviallyCopyableException noFields(Class<?> type) {
        return new NotTriviallyCopyableException(type, type.getName()
                + " is not trivially copyable: it has no instance fields in its whole hierarchy, so there is no block to copy");
    }

    /** Several fields may be at fault; the message names every one, the first in its opening sentence. */
    static NotTriviallyCopyableException badFields(Class<?> type, List<String> faults) {
        StringBuilder message = new StringBuilder(type.getName()).append(" is not trivially copyable: ").append(faults.getFirst());
        if (faults.size() > 1) {
            message.append("; also:");
            for (String fault : faults.subList(1, faults.size())) {
                message.append("\n  - ").append(fault);
            }
        }
        return new NotTriviallyCopyableException(type, message.toString());
    }

    static String referenceField(Field field, long offset) {
        String what = field.isSynthetic() && field.getName().startsWith("this$")
                ? "is the hidden enclosing-instance reference of an inner class (declare the class static)"
                : "is a reference field; " + FIX_REFERENCE;
        return "field " + describe(field, offset) + " " + what;
    }

    static String finalField(Field field, long offset) {
        return "field " + describe(field, offset) + " is final; Blit writes fields in place when reading a block, "
                + "which final fields forbid (the JIT may have folded their values). Remove 'final'";
    }

    static String duplicateName(Field field, long offset, FieldSlot earlier) {
        return "field " + describe(field, offset) + " has the same name as field " + earlier
                + "; names identify fields in layouts and fingerprints, so they must be unique in the hierarchy";
    }

    /** {@code Host.name @offset (type)}, as FieldSlot prints primitive fields. */
    private static String describe(Field field, long offset) {
        return field.getDeclaringClass().getSimpleName() + "." + field.getName() + " @" + offset
                + " (" + field.getType().getTypeName() + ")";
    }
}
