package io.blit.queue;

import java.util.Map;

/**
 * The JMX view of an open {@link BlitQueue} ({@link BlitQueue#registerMBean()}), under
 * {@code io.blit:type=BlitQueue,name="<directory>"}: each attribute read takes a {@link QueueStats} sample. Uses the
 * JDK's {@code javax.management} only.
 */
public interface QueueMXBean {
    /** The queue directory. */
    String getDirectory();

    /** {@link QueueStats#endIndex()}. */
    long getEndIndex();

    /** {@link QueueStats#files()}. */
    int getFiles();

    /** {@link QueueStats#bytes()}. */
    long getBytes();

    /** {@link QueueStats#appendRatePerSecond()}. */
    double getAppendRatePerSecond();

    /** Every named consumer's lag in messages, by name. */
    Map<String, Long> getConsumerLags();

    /** Every named consumer's committed index, by name. */
    Map<String, Long> getConsumerCommittedIndices();
}
