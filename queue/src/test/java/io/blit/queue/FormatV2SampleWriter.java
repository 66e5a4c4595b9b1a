package io.blit.queue;

import io.blit.queue.internal.format.SegmentFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Writes the sample of segment-file format version 2 (a type table) that {@link FormatV2SampleTest} reads: a queue of
 * the two types of {@link TypedQueueTest#TWO} (MarketData under type id 1, Quote under type id 2) at the smallest
 * segment size, messages 0 to {@link #COUNT} - 1 as {@link TypedQueueTest#message} gives them (a Quote when
 * n % 3 == 2), with {@code prepareNextFile(false)}, into a directory that must not exist yet (or be empty). Message n
 * is appended at {@link #timeOf}{@code (n)}: a clock set before each append.
 *
 * <p>The sample in {@code queue/src/test/resources/format-v2} was written once, under the default JVM mode of JDK 25 on
 * x86-64, and is never to be written again: every later build must read it. Written from the repository's root with:
 * <pre>
 * ./mvnw -q -B -o -pl queue -am test-compile
 * /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --sun-misc-unsafe-memory-access=allow \
 *     -cp queue/target/test-classes:queue/target/classes:core/target/classes:layout-verifier/target/classes \
 *     io.blit.queue.FormatV2SampleWriter queue/src/test/resources/format-v2
 * </pre>
 */
public final class FormatV2SampleWriter {
    /** Message indices of the sample: 0 to COUNT - 1. */
    public static final int COUNT = 120;

    /** The time of message 0: 2026-11-26T09:30:00Z in nanoseconds since the epoch. */
    public static final long FIRST_TIME = java.time.Instant.parse("2026-11-26T09:30:00Z").getEpochSecond() * 1_000_000_000L;

    private FormatV2SampleWriter() {
    }

    /** The time message {@code n} was appended at: one millisecond after message n - 1. */
    public static long timeOf(long n) {
        return FIRST_TIME + n * 1_000_000L;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                if (files.findAny().isPresent()) {
                    throw new IllegalStateException(dir + " is not empty: the sample is written once");
                }
            }
        }
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
        QueueOptions options = QueueOptions.defaults().segmentSize(SegmentFormat.MIN_SEGMENT_SIZE)
                .prepareNextFile(false).clock(now::get);
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, options);
             Appender<Object> appender = queue.appender()) {
            for (long n = 0; n < COUNT; n++) {
                now.set(timeOf(n));
                if (appender.append(TypedQueueTest.message(n)) != n) {
                    throw new IllegalStateException("message " + n + " got another index");
                }
            }
            System.out.println("wrote " + COUNT + " messages in files " + java.util.Arrays.toString(
                    queue.fileFirstIndices()));
        }
    }
}
