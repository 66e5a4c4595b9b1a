package io.blit.queue.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.NamedTailer;
import io.blit.queue.Tailer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BlitQueueMetrics} in a {@link SimpleMeterRegistry}, against known appends and commits. */
class BlitQueueMetricsTest {
    private static final long SEGMENT = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void theGaugesShowTheQueuesFiguresAndEveryConsumer() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueOptions.defaults().segmentSize(SEGMENT));
             Appender<Void> appender = queue.appender()) {
            new BlitQueueMetrics(queue, Tags.of("app", "gateway")).bindTo(registry);
            MemorySegment payload = MemorySegment.ofArray(new byte[100]);
            for (int i = 0; i < 2_000; i++) {
                appender.append(payload);
            }
            try (NamedTailer<Void> risk = queue.tailer("risk")) {
                MemorySegment into = MemorySegment.ofArray(new byte[100]);
                for (int i = 0; i < 500; i++) {
                    assertEquals(100, risk.readNextBytes(into));
                }
                risk.commit();
            }
            Thread.sleep(BlitQueueMetrics.REUSE_MILLIS + 50); // the next read takes a new sample
            assertEquals(2_000, registry.get("blit.queue.end.index").tag("app", "gateway")
                    .tag("queue", dir.toString()).gauge().value());
            int files = queue.fileFirstIndices().length;
            assertTrue(files > 2, "several 64 KiB files");
            assertEquals(files, registry.get("blit.queue.files").gauge().value());
            assertEquals(files * SEGMENT, registry.get("blit.queue.bytes").gauge().value());
            assertEquals(1_500, registry.get("blit.queue.consumer.lag").tag("consumer", "risk").gauge().value());
            assertEquals(499, registry.get("blit.queue.consumer.committed").tag("consumer", "risk").gauge().value());
            double rate = registry.get("blit.queue.append.rate").gauge().value();
            assertTrue(rate > 0, "2,000 appends since the first sample: " + rate);
            try (Tailer<Void> unused = queue.tailer()) {
                assertEquals("gateway", registry.get("blit.queue.end.index").gauge().getId().getTag("app"));
            }
        }
    }
}
