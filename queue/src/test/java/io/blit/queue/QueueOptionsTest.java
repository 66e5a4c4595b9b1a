package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.LayoutPolicy;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** {@link QueueOptions} as a value: its defaults, its checks, and option methods that leave their receiver alone. */
class QueueOptionsTest {
    private static final QueueClock SYSTEM_CLOCK = QueueClock.system();
    private static final RetentionPolicy KEEP_THREE = RetentionPolicy.keepNewestFiles(3);

    /** One change per option, each away from its default. */
    private static final List<UnaryOperator<QueueOptions>> EACH_OPTION_CHANGED = List.of(
            o -> o.segmentSize(1L << 20),
            o -> o.abandonGrace(Duration.ZERO),
            o -> o.layoutPolicy(LayoutPolicy.STRICT),
            o -> o.retention(KEEP_THREE),
            o -> o.prepareNextFile(false),
            o -> o.privateFiles(true),
            o -> o.readOnly(true),
            o -> o.clock(SYSTEM_CLOCK),
            o -> o.rollEvery(Duration.ofHours(1)),
            o -> o.recordChecksums(true),
            o -> o.verifyRecordChecksums(false));

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        QueueOptions defaults = QueueOptions.defaults();
        assertEquals(64L << 20, defaults.segmentSize());
        assertEquals(Duration.ofSeconds(1), defaults.abandonGrace());
        assertEquals(LayoutPolicy.TRANSLATE, defaults.layoutPolicy());
        assertSame(RetentionPolicy.keepAll(), defaults.retention());
        assertTrue(defaults.prepareNextFile());
        assertFalse(defaults.privateFiles());
        assertFalse(defaults.readOnly());
        assertSame(QueueClock.cached(), defaults.clock());
        assertEquals(Duration.ZERO, defaults.rollEvery());
        assertFalse(defaults.recordChecksums(), "no record checksums written by default");
        assertTrue(defaults.verifyRecordChecksums(), "those of files that have them verified by default");
    }

    @Test
    void eachOptionMethodSetsItsOptionOnly() {
        QueueOptions all = QueueOptions.defaults();
        for (UnaryOperator<QueueOptions> change : EACH_OPTION_CHANGED) {
            all = change.apply(all);
        }
        assertEquals(1L << 20, all.segmentSize());
        assertEquals(Duration.ZERO, all.abandonGrace());
        assertEquals(LayoutPolicy.STRICT, all.layoutPolicy());
        assertSame(KEEP_THREE, all.retention());
        assertFalse(all.prepareNextFile());
        assertTrue(all.privateFiles());
        assertTrue(all.readOnly());
        assertSame(SYSTEM_CLOCK, all.clock());
        assertEquals(Duration.ofHours(1), all.rollEvery());
        assertEquals(QueueOptions.defaults().segmentSize(1L << 20),
                QueueOptions.defaults().segmentSize(1L << 20).abandonGrace(Duration.ofSeconds(1)),
                "setting an option to its default changes nothing else");
    }

    @Test
    void optionMethodsLeaveTheirReceiverUnchanged() {
        QueueOptions defaults = QueueOptions.defaults();
        for (UnaryOperator<QueueOptions> change : EACH_OPTION_CHANGED) {
            QueueOptions changed = change.apply(defaults);
            assertNotEquals(defaults, changed);
        }
        assertEquals(QueueOptions.defaults(), defaults);
        assertEquals(64L << 20, defaults.segmentSize());
        assertTrue(defaults.prepareNextFile());
        assertEquals(Duration.ZERO, defaults.rollEvery());
    }

    @Test
    void equalsAndHashCodeCoverEveryOption() {
        for (int i = 0; i < EACH_OPTION_CHANGED.size(); i++) {
            QueueOptions one = EACH_OPTION_CHANGED.get(i).apply(QueueOptions.defaults());
            QueueOptions again = EACH_OPTION_CHANGED.get(i).apply(QueueOptions.defaults());
            assertEquals(one, again);
            assertEquals(one.hashCode(), again.hashCode());
            for (int j = 0; j < i; j++) {
                assertNotEquals(EACH_OPTION_CHANGED.get(j).apply(QueueOptions.defaults()), one,
                        "option " + j + " against option " + i);
            }
        }
        assertNotEquals(QueueOptions.defaults(), null);
        assertNotEquals(QueueOptions.defaults(), "QueueOptions");
    }

    @Test
    void toStringNamesEveryOption() {
        String text = QueueOptions.defaults().segmentSize(1L << 20).abandonGrace(Duration.ofMillis(5))
                .privateFiles(true).toString();
        for (String expected : List.of("segmentSize=1048576", "abandonGrace=PT0.005S", "layoutPolicy=TRANSLATE",
                "retention=", "prepareNextFile=true", "privateFiles=true", "readOnly=false", "clock=",
                "rollEvery=PT0S", "recordChecksums=false", "verifyRecordChecksums=true")) {
            assertTrue(text.contains(expected), expected + " in " + text);
        }
    }

    @Test
    void outOfBoundsValuesAreRefusedNamingTheValue() {
        QueueOptions defaults = QueueOptions.defaults();
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> defaults.segmentSize(8192));
        assertEquals("segment size 8192 must be a multiple of 4096 from 12288 (12 KiB) to 4294967296"
                + " (4 GiB: checkpoints hold u32 record positions)", size.getMessage());
        IllegalArgumentException grace = assertThrows(IllegalArgumentException.class,
                () -> defaults.abandonGrace(Duration.ofMillis(-1)));
        assertEquals("abandon grace PT-0.001S is negative", grace.getMessage());
        IllegalArgumentException roll = assertThrows(IllegalArgumentException.class,
                () -> defaults.rollEvery(Duration.ofMinutes(7)));
        assertTrue(roll.getMessage().startsWith("rollEvery must be zero") && roll.getMessage().endsWith("got PT7M"),
                roll.getMessage());
        assertEquals(QueueOptions.defaults(), defaults, "a refused value changes nothing");
    }

    @Test
    void nullsAreRefusedNamingTheOption() {
        QueueOptions defaults = QueueOptions.defaults();
        assertEquals("abandonGrace", assertThrows(NullPointerException.class, () -> defaults.abandonGrace(null))
                .getMessage());
        assertEquals("layoutPolicy", assertThrows(NullPointerException.class, () -> defaults.layoutPolicy(null))
                .getMessage());
        assertEquals("retention", assertThrows(NullPointerException.class, () -> defaults.retention(null))
                .getMessage());
        assertEquals("clock", assertThrows(NullPointerException.class, () -> defaults.clock(null)).getMessage());
        assertEquals("rollEvery", assertThrows(NullPointerException.class, () -> defaults.rollEvery(null))
                .getMessage());
    }
}
