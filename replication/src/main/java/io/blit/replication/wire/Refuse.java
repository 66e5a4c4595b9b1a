package io.blit.replication.wire;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * REFUSE, source to replica, sequence 0 of the source's direction: why the source does not serve this replica
 * (another queue, another layout, indices it no longer holds). Sealed under the session key, so that no one
 * without the secret can stop a replica: the replica stops only for a refusal that opens.
 *
 * <pre>
 * 0    | type u32 = 5 | reason length u32 (R, at most 4096) |
 * 8    | sequence u64 = 0                                  |
 * 16   | reason, UTF-8 (R)                                 |
 * 16+R | tag (16)                                          |
 * </pre>
 */
public final class Refuse {
    public static final int MAX_REASON = 4096;

    private Refuse() {
    }

    public static int encode(UnsafeBuffer buffer, String reason, Sealer sealer) {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, MAX_REASON);
        Session.head(buffer, Wire.REFUSE, length, 0);
        buffer.putBytes(Session.BODY_AT, text, 0, length);
        return Session.seal(buffer, Session.BODY_AT + length, sealer);
    }

    public static boolean wellFormed(DirectBuffer buffer, int length) {
        if (length < Session.MIN_LENGTH) {
            return false; // too short to hold the reason length: read nothing
        }
        int reason = Session.aux(buffer);
        return reason >= 0 && reason <= MAX_REASON && length == Session.BODY_AT + reason + Sealer.TAG;
    }

    /**
     * The refusal's reason, as text safe to print: it comes from the peer, so control characters (escape sequences
     * that could rewrite a terminal, line breaks that could forge log lines) are shown escaped: a backslash, {@code u}
     * and the character's four hex digits; a backslash is doubled.
     */
    public static String reason(DirectBuffer buffer) {
        return printable(buffer.getStringWithoutLengthUtf8(Session.BODY_AT, Session.aux(buffer)));
    }

    /** {@code text} with every ISO control character escaped (backslash, u, four hex digits), every backslash doubled. */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                out.append("\\\\");
            } else if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
