package io.blit.replication.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A peer's refusal text reaches a terminal or a log only with its control characters escaped. */
class RefuseTest {
    @Test
    void controlCharactersOfAPeersReasonAreEscaped() {
        String hostile = "refused\u001b[2J\u001b[31m forged\r\nINFO all is well\u0007 \\u0041 \u0085 é";
        assertEquals("refused\\u001b[2J\\u001b[31m forged\\u000d\\u000aINFO all is well\\u0007 \\\\u0041 \\u0085 é",
                Refuse.printable(hostile));
        assertEquals("layout mismatch: field x moved", Refuse.printable("layout mismatch: field x moved"));
    }
}
