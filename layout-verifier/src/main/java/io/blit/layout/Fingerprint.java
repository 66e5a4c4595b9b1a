package io.blit.layout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The one definition of a layout fingerprint, shared by {@link BlockLayout} (class-based) and
 * {@link LayoutDescriptor} (class-free), so that both always agree: the first 8 bytes, in lowercase
 * hex, of SHA-256 over {@code "blit-layout-v1\n"}, then {@code name:typeKeyword:relativeOffset\n} per
 * field in offset order, then {@code length:N}. Stateless; thread-safe.
 */
final class Fingerprint {
    /** Version tag hashed into every fingerprint; bump it only if the hashed content changes. */
    private static final String FORMAT = "blit-layout-v1";

    /** Hex digits in a fingerprint. */
    static final int HEX_DIGITS = 16;

    private Fingerprint() {
    }

    /**
     * The fingerprint of fields sorted by offset, read through the given accessors.
     *
     * @param offset the field's offset from the start of the object; hashed relative to {@code start}
     */
    static <F> String of(List<F> sortedFields, Function<F, String> name, Function<F, FieldType> type,
                         ToIntFunction<F> offset, int start, int length) {
        StringBuilder canonical = new StringBuilder(FORMAT).append('\n');
        for (F field : sortedFields) {
            canonical.append(name.apply(field)).append(':').append(type.apply(field).keyword())
                    .append(':').append(offset.applyAsInt(field) - start).append('\n');
        }
        canonical.append("length:").append(length);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JDK provides SHA-256", e);
        }
    }
}
