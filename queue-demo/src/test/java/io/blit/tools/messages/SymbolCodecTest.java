package io.blit.tools.messages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SymbolCodecTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "A", "EURUSD", "XLON", "BRK.B", "ABCDEFGH", "!~09az"})
    void roundTripsEveryValidCode(String code) {
        assertEquals(code, SymbolCodec.decode(SymbolCodec.encode(code)));
    }

    @Test
    void packsFirstCharacterIntoLowestByte() {
        assertEquals('A' | ('B' << 8), SymbolCodec.encode("AB"));
        assertEquals(0, SymbolCodec.encode(""));
    }

    @Test
    void distinctCodesGiveDistinctLongs() {
        assertNotEquals(SymbolCodec.encode("AB"), SymbolCodec.encode("BA"));
        assertNotEquals(SymbolCodec.encode("A"), SymbolCodec.encode("AA"));
    }

    @Test
    void rejectsCodesLongerThanEightCharactersNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SymbolCodec.encode("ABCDEFGHI"));
        assertTrue(e.getMessage().contains("\"ABCDEFGHI\"") && e.getMessage().contains("9 characters"), e.getMessage());
    }

    @Test
    void rejectsSpaceAndNonAsciiNamingCharacterAndPosition() {
        IllegalArgumentException space = assertThrows(IllegalArgumentException.class, () -> SymbolCodec.encode("EUR USD"));
        assertTrue(space.getMessage().contains("U+0020") && space.getMessage().contains("position 3"), space.getMessage());
        IllegalArgumentException euro = assertThrows(IllegalArgumentException.class, () -> SymbolCodec.encode("€UR"));
        assertTrue(euro.getMessage().contains("U+20AC") && euro.getMessage().contains("position 0"), euro.getMessage());
    }

    @Test
    void rejectsLongsThatAreNoCode() {
        IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
                () -> SymbolCodec.decode('A' | ((long) 'B' << 16)));
        assertTrue(gap.getMessage().contains("byte 1 is zero"), gap.getMessage());
        IllegalArgumentException control = assertThrows(IllegalArgumentException.class, () -> SymbolCodec.decode(0x07));
        assertTrue(control.getMessage().contains("byte 0 is 0x7"), control.getMessage());
    }
}
