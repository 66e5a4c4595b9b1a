package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BlitQueue#stats()} and the {@link QueueMXBean} against known appends and commits. */
class QueueStatsTest {
    private static final long SEGMENT = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void statsGiveTheEndFilesBytesRateAndEveryConsumersLag() throws Exception {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO,
                QueueOptions.defaults().segmentSize(SEGMENT));
             Appender<Object> appender = queue.appender()) {
            long started = System.nanoTime(); // before the first sample: bounds the time between the samples
            QueueStats empty = queue.stats();
            assertEquals(0, empty.endIndex());
            assertTrue(Double.isNaN(empty.appendRatePerSecond()), "no earlier sample: no rate");
            for (long n = 0; n < 3_000; n++) {
                appender.append(TypedQueueTest.message(n));
            }
            try (NamedTailer<Object> risk = queue.tailer("risk")) {
                for (int i = 0; i < 1_000; i++) {
                    assertTrue(risk.read((index, message) -> { }));
                }
                risk.commit();
            }
            Thread.sleep(1_100);
            QueueStats stats = queue.stats();
            double elapsed = (System.nanoTime() - started) / 1e9;
            assertEquals(3_000, stats.endIndex());
            assertEquals(queue.fileFirstIndices().length, stats.files());
            assertTrue(stats.files() > 3, "several 64 KiB files: " + stats.files());
            assertEquals(stats.files() * SEGMENT, stats.bytes());
            assertTrue(stats.appendRatePerSecond() <= 3_000 / 1.0 && stats.appendRatePerSecond() >= 3_000 / elapsed,
                    "3,000 appends over at least 1 s and at most " + elapsed + " s: " + stats.appendRatePerSecond());
            assertEquals(List.of("risk 999 2000"), stats.consumers().stream()
                    .map(c -> c.name() + " " + c.committedIndex() + " " + c.lag()).toList());
            Thread.sleep(1_100);
            assertEquals(0.0, queue.stats().appendRatePerSecond(), "nothing appended in the last second");
        }
    }

    @Test
    void theMXBeanShowsTheSameFiguresAndIsUnregisteredByClose() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name;
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO,
                QueueOptions.defaults().segmentSize(SEGMENT));
             Appender<Object> appender = queue.appender()) {
            for (long n = 0; n < 500; n++) {
                appender.append(TypedQueueTest.message(n));
            }
            try (NamedTailer<Object> audit = queue.tailer("audit")) {
                for (int i = 0; i < 100; i++) {
                    audit.read((index, message) -> { });
                }
                audit.commit();
            }
            name = queue.registerMBean();
            assertEquals(name, queue.registerMBean(), "idempotent");
            assertEquals("io.blit", name.getDomain());
            assertEquals(500L, server.getAttribute(name, "EndIndex"));
            assertEquals(queue.fileFirstIndices().length, server.getAttribute(name, "Files"));
            assertEquals(dir.toString(), server.getAttribute(name, "Directory"));
            TabularData lags = (TabularData) server.getAttribute(name, "ConsumerLags");
            assertEquals(1, lags.size());
            CompositeData audit = (CompositeData) lags.values().iterator().next();
            assertEquals("audit", audit.get("key"));
            assertEquals(400L, audit.get("value"));
            try (BlitQueue<Object> again = BlitQueue.open(dir, TypedQueueTest.TWO,
                    QueueOptions.defaults().segmentSize(SEGMENT))) {
                assertThrows(IllegalStateException.class, again::registerMBean, "one MXBean per directory and JVM");
            }
        }
        assertFalse(server.isRegistered(name), "close unregisters it");
    }

    @Test
    void aReadOfAllAttributesAtOnceAnswersFromOneSample() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO,
                QueueOptions.defaults().segmentSize(SEGMENT))) {
            try (Appender<Object> appender = queue.appender(); NamedTailer<Object> risk = queue.tailer("risk")) {
                appender.append(TypedQueueTest.message(0));
                assertTrue(risk.read((index, message) -> { }));
                risk.commit();
            }
            ObjectName name = queue.registerMBean();
            AtomicBoolean stop = new AtomicBoolean();
            Thread producer = Thread.ofPlatform().start(() -> {
                try (Appender<Object> appender = queue.appender()) {
                    for (long n = 1; !stop.get(); n++) {
                        appender.append(TypedQueueTest.message(n));
                        LockSupport.parkNanos(20_000); // a steady trickle: many appends between reads, few files
                    }
                }
            });
            try {
                String[] all = {"EndIndex", "Files", "Bytes", "ConsumerLags", "ConsumerCommittedIndices"};
                int reads = 0;
                long firstEnd = -1;
                long lastEnd = -1;
                for (long deadline = System.nanoTime() + 2_000_000_000L; System.nanoTime() < deadline; reads++) {
                    AttributeList list = server.getAttributes(name, all);
                    assertEquals(all.length, list.size());
                    Map<String, Object> values = new HashMap<>();
                    for (Attribute attribute : list.asList()) {
                        values.put(attribute.getName(), attribute.getValue());
                    }
                    long end = (Long) values.get("EndIndex");
                    long lag = (Long) ((CompositeData) ((TabularData) values.get("ConsumerLags")).values().iterator()
                            .next()).get("value");
                    long committed = (Long) ((CompositeData) ((TabularData) values.get("ConsumerCommittedIndices"))
                            .values().iterator().next()).get("value");
                    assertEquals(0, committed);
                    assertEquals(end - committed - 1, lag, "read " + reads + ": the lag counts from the same end");
                    assertEquals((Integer) values.get("Files") * SEGMENT, (Long) values.get("Bytes"));
                    firstEnd = firstEnd < 0 ? end : firstEnd;
                    lastEnd = end;
                }
                assertTrue(lastEnd > firstEnd, "the queue grew while it was read: " + firstEnd + " -> " + lastEnd);
            } finally {
                stop.set(true);
                producer.join();
            }
        }
    }
}
