package io.blit.queue;

import java.util.Map;

/**
 * The JMX view of an open {@link BlitQueue} ({@link BlitQueue#registerMBean()}), under
 * {@code io.blit:type=BlitQueue,name="<directory>"}: each attribute read takes a {@link QueueStats} sample. Uses the
 * JDK's {@code javax.management} only.
 */
public interface QueueMXBean {
    /** {@return the queue directory} */
    String getDirectory();

    /** {@return the end index: the index the next append gets} {@link QueueStats#endIndex()}. */
    long getEndIndex();

    /** {@return how many segment files the directory holds} {@link QueueStats#files()}. */
    int getFiles();

    /** {@return the segment files' total size in bytes} {@link QueueStats#bytes()}. */
    long getBytes();

    /** {@return messages appended per second, NaN at the first sample} {@link QueueStats#appendRatePerSecond()}. */
    double getAppendRatePerSecond();

    /** {@return every named consumer's lag in messages, by name} */
    Map<String, Long> getConsumerLags();

    /** {@return every named consumer's committed index, by name} */
    Map<String, Long> getConsumerCommittedIndices();
}
