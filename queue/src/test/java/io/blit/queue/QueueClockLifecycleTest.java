package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A queue's clock is acquired by each appender that opens and released when it closes, whatever the clock. */
class QueueClockLifecycleTest {
    @TempDir
    Path dir;

    /** A clock of the user's own that records its lifecycle calls. */
    private static final class RecordingClock implements QueueClock {
        final List<String> calls = new ArrayList<>();
        long now = 1_000_000_000L;

        @Override
        public long epochNanos() {
            return now;
        }

        @Override
        public synchronized void acquire() {
            calls.add("acquire");
        }

        @Override
        public synchronized void release() {
            calls.add("release");
        }
    }

    @Test
    void everyAppenderAcquiresTheClockOnceAndReleasesItOnce() {
        RecordingClock clock = new RecordingClock();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO,
                QueueOptions.defaults().segmentSize(64 << 10).clock(clock))) {
            Appender<Object> first = queue.appender();
            first.append(TypedQueueTest.message(0));
            assertEquals(List.of("acquire"), clock.calls);
            try (Appender<Object> second = queue.appender()) {
                second.append(TypedQueueTest.message(1));
                assertEquals(List.of("acquire", "acquire"), clock.calls);
            }
            assertEquals(List.of("acquire", "acquire", "release"), clock.calls);
            first.close();
            first.close(); // idempotent: released once
            assertEquals(List.of("acquire", "acquire", "release", "release"), clock.calls);
        }
    }

    @Test
    void aClockWithoutALifecycleNeedsNone() {
        QueueClock fixed = () -> 42L;
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO,
                QueueOptions.defaults().segmentSize(64 << 10).clock(fixed));
             Appender<Object> appender = queue.appender();
             Tailer<Object> tailer = queue.tailer()) {
            appender.append(TypedQueueTest.message(0));
            tailer.read((index, message) -> { });
            assertEquals(42L, tailer.lastTimeNanos());
        }
    }
}
