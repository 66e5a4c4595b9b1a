package io.blit.queue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * The figures of one {@link BlitQueue} object ({@link QueueStats}) and its registration as a {@link QueueMXBean}. The
 * append rate comes from the end indices of the samples this object took: a sample is kept at most once every 100 ms,
 * for two seconds. A JMX read of several attributes at once ({@code MBeanServer.getAttributes}, what consoles and
 * exporters do) takes one sample and answers every attribute from it, so the figures agree with each other (a lag is
 * the end index minus the committed index minus 1) and the directory is listed once; a read of one attribute takes a
 * sample of its own. Thread-safe (sampling synchronizes on this object).
 */
final class QueueMonitor implements QueueMXBean {
    private static final long KEEP_EVERY_NANOS = 100_000_000L;
    private static final long HISTORY_NANOS = 2_000_000_000L;
    private final BlitQueue<?> queue;
    /** (System.nanoTime, endIndex) pairs, oldest first. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    /** The sample that answers every attribute of the JMX read in progress in this thread, if any. */
    private final ThreadLocal<QueueStats> reading = new ThreadLocal<>();
    private ObjectName registered;

    QueueMonitor(BlitQueue<?> queue) {
        this.queue = queue;
    }

    QueueStats sample() {
        Consumers.Snapshot consumers = Consumers.snapshot(queue);
        long end = consumers.end();
        long now = System.nanoTime();
        int files = 0;
        long bytes = 0;
        for (long first : queue.fileFirstIndices()) {
            try {
                bytes += Files.size(SegmentFiles.path(queue.directory(), first));
                files++;
            } catch (NoSuchFileException deleted) {
                // retention deleted it meanwhile: not counted
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the size of a file of queue " + queue.directory(), e);
            }
        }
        return new QueueStats(end, files, bytes, rate(now, end), consumers.positions(), Instant.now());
    }

    private synchronized double rate(long now, long end) {
        long[] base = null;
        for (long[] sample : samples) { // the latest sample at least a second old, else the oldest
            if (base == null || now - sample[0] >= 1_000_000_000L) {
                base = sample;
            }
        }
        double rate = base == null || now == base[0] ? Double.NaN : (end - base[1]) * 1e9 / (now - base[0]);
        if (samples.isEmpty() || now - samples.getLast()[0] >= KEEP_EVERY_NANOS) {
            samples.addLast(new long[] {now, end});
        }
        while (now - samples.getFirst()[0] > HISTORY_NANOS && samples.size() > 1) {
            samples.removeFirst();
        }
        return rate;
    }

    /** Registers this view with the platform MBean server; idempotent. */
    synchronized ObjectName register() {
        if (registered == null) {
            try {
                ObjectName name = new ObjectName("io.blit:type=BlitQueue,name=" + ObjectName.quote(queue.directory().toString()));
                ManagementFactory.getPlatformMBeanServer().registerMBean(new SampledOnce(this), name);
                registered = name;
            } catch (JMException e) {
                throw new IllegalStateException("cannot register the MXBean of queue " + queue.directory(), e);
            }
        }
        return registered;
    }

    /** Unregisters this view if it was registered. */
    synchronized void unregister() {
        if (registered != null) {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            try {
                server.unregisterMBean(registered);
            } catch (JMException gone) {
                // unregistered by someone else: nothing left to do
            }
            registered = null;
        }
    }

    @Override
    public String getDirectory() {
        return queue.directory().toString();
    }

    @Override
    public long getEndIndex() {
        return current().endIndex();
    }

    @Override
    public int getFiles() {
        return current().files();
    }

    @Override
    public long getBytes() {
        return current().bytes();
    }

    @Override
    public double getAppendRatePerSecond() {
        return current().appendRatePerSecond();
    }

    @Override
    public Map<String, Long> getConsumerLags() {
        return byConsumer(ConsumerPosition::lag);
    }

    @Override
    public Map<String, Long> getConsumerCommittedIndices() {
        return byConsumer(ConsumerPosition::committedIndex);
    }

    private Map<String, Long> byConsumer(ToLongFunction<ConsumerPosition> value) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (ConsumerPosition position : current().consumers()) {
            values.put(position.name(), value.applyAsLong(position));
        }
        return values;
    }

    /** The sample of the JMX read in progress in this thread, else a new one. */
    private QueueStats current() {
        QueueStats stats = reading.get();
        return stats != null ? stats : sample();
    }

    /** The registered bean: a read of several attributes takes one sample for all of them. */
    private static final class SampledOnce extends StandardMBean {
        private final QueueMonitor monitor;

        SampledOnce(QueueMonitor monitor) {
            super(monitor, QueueMXBean.class, true);
            this.monitor = monitor;
        }

        @Override
        public AttributeList getAttributes(String[] names) {
            monitor.reading.set(monitor.sample());
            try {
                return super.getAttributes(names);
            } finally {
                monitor.reading.remove();
            }
        }
    }
}
