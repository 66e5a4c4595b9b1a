package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.record.RecordTimes;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files roll by time ({@link QueueOptions#rollEvery}) at UTC-aligned boundaries, and retention by age goes by the
 * records' times: a clock the test sets by hand, so no test sleeps.
 */
class TimeRollTest {
    private final AtomicLong now = new AtomicLong();

    @TempDir
    Path dir;

    private QueueOptions hourly() {
        return QueueOptions.defaults().segmentSize(1 << 20).clock(now::get).rollEvery(Duration.ofHours(1));
    }

    private void at(String instant) {
        now.set(FormatV2SampleTest.nanos(Instant.parse(instant)));
    }

    @Test
    void aNewFileStartsAtTheFirstAppendOfEachHourAndAnIdleHourLeavesNoFile() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, hourly());
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            at("2026-11-26T09:15:00Z");
            appender.append(md.fillFor(0, 0));
            at("2026-11-26T09:59:59.999999999Z");
            appender.append(md.fillFor(1, 0));                  // the last nanosecond of the hour: same file
            at("2026-11-26T10:00:00Z");
            assertEquals(2, appender.append(md.fillFor(2, 0))); // the boundary itself: a new file
            appender.append(md.fillFor(3, 0));
            at("2026-11-26T13:30:00Z");                         // 11:00 and 12:00 pass without an append
            appender.append(md.fillFor(4, 0));
            at("2026-11-26T13:45:00Z");
            appender.append(md.fillFor(5, 0));
            assertArrayEquals(new long[] {0, 2, 4}, queue.fileFirstIndices());
            assertEquals(List.of("2026-11-26T09:15:00Z", "2026-11-26T10:00:00Z", "2026-11-26T13:30:00Z"),
                    firstMessageTimes(queue));
        }
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            for (int n = 0; n < 6; n++) {
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n));
            }
        }
    }

    @Test
    void anAppenderOpenedInALaterPeriodThanTheNewestFileStartsANewFileAndAnotherPeriodLengthAlignsToMidnight() {
        at("2026-11-26T23:50:00Z");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, hourly());
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(0, 0));
        }
        QueueOptions quarterly = hourly().rollEvery(Duration.ofMinutes(15));
        at("2026-11-27T00:00:00.000000001Z"); // the next day's first quarter
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, quarterly);
             Appender<MarketData> appender = queue.appender()) {
            assertEquals(1, appender.append(new MarketData().fillFor(1, 0)));
            at("2026-11-27T00:14:59Z");
            appender.append(new MarketData().fillFor(2, 0));
            at("2026-11-27T00:15:00Z");
            appender.append(new MarketData().fillFor(3, 0));
            assertArrayEquals(new long[] {0, 1, 3}, queue.fileFirstIndices());
        }
    }

    @Test
    void aFileEmptyWhenItsPeriodPassesTakesTheNextPeriodInsteadOfEndingWithAnAbandonedIndex() {
        at("2026-11-26T09:00:00Z");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, hourly());
             Appender<MarketData> appender = queue.appender()) {
            appender.pretouch(0); // maps the empty first file in the 09:00 period
            at("2026-11-26T11:00:00Z");
            assertEquals(0, appender.append(new MarketData().fillFor(0, 0)));
            assertArrayEquals(new long[] {0}, queue.fileFirstIndices());
        }
    }

    @Test
    void rollPeriodsThatDoNotDivideADayAreRefused() {
        for (Duration bad : List.of(Duration.ofMinutes(7), Duration.ofMillis(500), Duration.ofDays(2),
                Duration.ofHours(-1))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QueueOptions.defaults().rollEvery(bad), bad.toString());
            assertTrue(e.getMessage().contains("divides a day") && e.getMessage().contains(bad.toString()),
                    e.getMessage());
        }
        assertEquals(Duration.ofMinutes(15), QueueOptions.defaults().rollEvery(Duration.ofMinutes(15)).rollEvery());
    }

    @Test
    void keepForGoesByTheRecordsTimesNotByWhenTheFilesWereCreated() {
        // the clock says 2030: every file was created (by the wall clock) years before any record's time
        QueueOptions options = hourly().retention(RetentionPolicy.keepFor(Duration.ofMinutes(90)));
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int hour = 0; hour < 5; hour++) {
                at("2030-01-01T0" + hour + ":30:00Z");
                appender.append(md.fillFor(hour, 0));
            }
            // appenders apply it at each roll: at 04:30 the cutoff is 03:00, and the files whose successor's first
            // message (01:30, 02:30) is at or before it are gone
            assertArrayEquals(new long[] {2, 3, 4}, queue.fileFirstIndices());
            at("2030-01-01T05:00:00Z");
            queue.applyRetention(); // cutoff 03:30: file 2's successor starts at 03:30
            assertArrayEquals(new long[] {3, 4}, queue.fileFirstIndices());
        }
    }

    private List<String> firstMessageTimes(BlitQueue<?> queue) {
        return java.util.Arrays.stream(queue.fileFirstIndices()).mapToObj(first -> {
            try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(dir, first), true)) {
                return Instant.ofEpochSecond(0, RecordTimes.firstMessageTime(file)).toString();
            }
        }).toList();
    }
}
