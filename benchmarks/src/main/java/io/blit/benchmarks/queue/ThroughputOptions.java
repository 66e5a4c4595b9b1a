package io.blit.benchmarks.queue;

import io.blit.cli.BadInputException;
import io.blit.cli.CliSupport;
import io.blit.queue.BlitQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The command-line options {@link QueueThroughput} and {@link QueueThroughputFloor} share (a picocli mixin), and the
 * helpers both use. Each harness adds its own options beside it. Filled by picocli, then read only; not
 * thread-safe.
 */
final class ThroughputOptions {
    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = "--messages", paramLabel = "N", description = "messages per measured run (default 20000000)")
    private long messages = 20_000_000;

    @Option(names = "--runs", paramLabel = "R", description = "measured runs of each kind (default 3)")
    private int runs = 3;

    @Option(names = "--segment-size", paramLabel = "BYTES", converter = CliSupport.ByteSize.class,
            description = "segment file size in bytes, with k, m or g for KiB, MiB, GiB (default 64m)")
    private long segmentSize = BlitQueue.DEFAULT_SEGMENT_SIZE;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "where the temporary queue directories go (default: java.io.tmpdir)")
    private Path parent = Path.of(System.getProperty("java.io.tmpdir"));

    @Option(names = "--mode", paramLabel = "both|append|tail", converter = ModeConverter.class,
            description = "both (default), append (appender alone) or tail (with a tailer)")
    private Mode mode = Mode.BOTH;

    /** What each run measures. */
    enum Mode { BOTH, APPEND, TAIL }

    static final class ModeConverter implements ITypeConverter<Mode> {
        @Override
        public Mode convert(String value) {
            return switch (value) {
                case "both" -> Mode.BOTH;
                case "append" -> Mode.APPEND;
                case "tail" -> Mode.TAIL;
                default -> throw new TypeConversionException("must be both, append or tail, got '" + value + "'");
            };
        }
    }

    /**
     * Checks the values picocli's types do not bound.
     *
     * @throws ParameterException for a count below 1 (exit 2)
     * @throws BadInputException  if {@code --dir} is no directory (exit 2)
     */
    void validate() {
        if (messages < 1 || runs < 1 || segmentSize < 1) {
            throw new ParameterException(command.commandLine(), "--messages, --runs and --segment-size must be >= 1");
        }
        if (!Files.isDirectory(parent)) {
            throw new BadInputException("--dir: no such directory: " + parent);
        }
    }

    /** Messages per measured run ({@code --messages}). */
    long messages() {
        return messages;
    }

    /** Measured runs of each kind ({@code --runs}). */
    int runs() {
        return runs;
    }

    /** Segment file size in bytes ({@code --segment-size}). */
    long segmentSize() {
        return segmentSize;
    }

    /** Where the temporary queue directories go ({@code --dir}). */
    Path parent() {
        return parent;
    }

    boolean appendAlone() {
        return mode != Mode.TAIL;
    }

    boolean withTailer() {
        return mode != Mode.APPEND;
    }

    /** Messages of the JIT warm-up run of each kind: a tenth of a run, at least a million. */
    long warmup() {
        return Math.max(1_000_000, messages / 10);
    }

    static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
