package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.NamedTailer.Options;
import io.blit.queue.NamedTailer.Options.Start;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link NamedTailer.Options} as a value: defaults, checks, and option methods that leave their receiver alone. */
class NamedTailerOptionsTest {
    @Test
    void theDefaultsStartAtTheFirstMessageWithExplicitCommits() {
        Options defaults = Options.defaults();
        assertEquals(Start.START, defaults.start());
        assertEquals(0, defaults.startIndex());
        assertFalse(defaults.autoCommit());
    }

    @Test
    void eachStartSetsTheStartAndItsIndexAndKeepsAutoCommit() {
        Options auto = Options.defaults().autoCommit(true);
        Options at = auto.from(42);
        assertEquals(Start.INDEX, at.start());
        assertEquals(42, at.startIndex());
        assertTrue(at.autoCommit());
        Options end = at.fromEnd();
        assertEquals(Start.END, end.start());
        assertEquals(0, end.startIndex(), "END has no index");
        assertTrue(end.autoCommit());
        Options start = at.fromStart();
        assertEquals(Start.START, start.start());
        assertEquals(0, start.startIndex());
        assertTrue(start.autoCommit());
    }

    @Test
    void optionMethodsLeaveTheirReceiverUnchanged() {
        Options at = Options.defaults().from(7);
        at.fromEnd();
        at.fromStart();
        at.autoCommit(true);
        at.from(9);
        assertEquals(Start.INDEX, at.start());
        assertEquals(7, at.startIndex());
        assertFalse(at.autoCommit());
        assertEquals(Options.defaults().from(7), at);
    }

    @Test
    void equalsAndHashCodeCoverEveryOption() {
        List<Options> distinct = List.of(Options.defaults(), Options.defaults().fromEnd(), Options.defaults().from(0),
                Options.defaults().from(1), Options.defaults().autoCommit(true));
        for (int i = 0; i < distinct.size(); i++) {
            for (int j = 0; j < distinct.size(); j++) {
                assertEquals(i == j, distinct.get(i).equals(distinct.get(j)),
                        distinct.get(i) + " against " + distinct.get(j));
            }
        }
        Options one = Options.defaults().from(5).autoCommit(true);
        Options other = Options.defaults().autoCommit(true).fromEnd().from(5);
        assertEquals(one, other, "the same options by another path");
        assertEquals(one.hashCode(), other.hashCode());
        assertNotEquals(one, null);
        assertEquals("Options[start=INDEX, startIndex=5, autoCommit=true]", one.toString());
    }

    @Test
    void aNegativeStartIndexIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Options.defaults().from(-1));
        assertEquals("start index -1 with start INDEX: an index >= 0 is given with INDEX only", e.getMessage());
    }
}
