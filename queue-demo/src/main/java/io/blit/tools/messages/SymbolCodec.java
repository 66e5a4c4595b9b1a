package io.blit.tools.messages;

/**
 * Packs a short ASCII code (a symbol such as {@code "EURUSD"} or an exchange such as {@code "XLON"}) into one
 * {@code long}, so a trivially copyable message can carry it in a primitive field.
 *
 * <p>Encoding: up to {@value #MAX_LENGTH} characters in the range {@code '!'..'~'} (printable ASCII without
 * space), character {@code i} in byte {@code i} (little end first), unused bytes zero. Hence
 * {@code decode(encode(s)).equals(s)} for every valid {@code s}, the empty string encodes to 0, and distinct
 * codes give distinct longs. Stateless and thread-safe; neither direction allocates except the decoded String.
 */
public final class SymbolCodec {
    /** The longest code that fits: one character per byte of a long. */
    public static final int MAX_LENGTH = 8;

    private SymbolCodec() {
    }

    /**
     * @throws IllegalArgumentException if {@code code} is longer than {@value #MAX_LENGTH} characters or holds a
     *                                  character outside {@code '!'..'~'} (the message names the code, the
     *                                  character and its position)
     * @throws NullPointerException     if {@code code} is null
     */
    public static long encode(CharSequence code) {
        int length = code.length();
        if (length > MAX_LENGTH) {
            throw new IllegalArgumentException("symbol code \"" + code + "\" has " + length
                    + " characters; at most " + MAX_LENGTH + " fit in a long");
        }
        long packed = 0;
        for (int i = 0; i < length; i++) {
            char c = code.charAt(i);
            if (c < '!' || c > '~') {
                throw new IllegalArgumentException("symbol code \"" + code + "\" has character U+"
                        + String.format("%04X", (int) c) + " at position " + i
                        + "; only printable ASCII without space ('!'..'~') is allowed");
            }
            packed |= (long) c << (8 * i);
        }
        return packed;
    }

    /**
     * @throws IllegalArgumentException if {@code packed} is not the encoding of a valid code (a byte outside
     *                                  {@code '!'..'~'}, or a non-zero byte after a zero byte)
     */
    public static String decode(long packed) {
        char[] chars = new char[MAX_LENGTH];
        int length = 0;
        for (int i = 0; i < MAX_LENGTH; i++) {
            int b = (int) (packed >>> (8 * i)) & 0xff;
            if (b == 0) {
                if ((packed >>> (8 * i)) != 0) {
                    throw new IllegalArgumentException("0x" + Long.toHexString(packed)
                            + " is not a symbol code: byte " + i + " is zero but a later byte is not");
                }
                break;
            }
            if (b < '!' || b > '~') {
                throw new IllegalArgumentException("0x" + Long.toHexString(packed) + " is not a symbol code: byte "
                        + i + " is 0x" + Integer.toHexString(b) + ", outside '!'..'~'");
            }
            chars[length++] = (char) b;
        }
        return new String(chars, 0, length);
    }
}
