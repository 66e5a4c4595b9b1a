package io.blit.benchmarks.queue;

import io.blit.queue.BlitQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The command-line options {@link QueueThroughput} and {@link QueueThroughputFloor} share, and the helpers both use.
 * Options a harness adds of its own are given with their defaults in {@code extras} and read with {@link #extra}.
 *
 * @param messages    messages per measured run ({@code --messages}, default 20,000,000)
 * @param runs        measured runs of each kind ({@code --runs}, default 3)
 * @param segmentSize segment file size in bytes ({@code --segment-size BYTES[k|m|g]}, default 64 MiB)
 * @param parent      where the temporary queue directories go ({@code --dir}, default {@code java.io.tmpdir})
 * @param mode        {@code both}, {@code append} (alone) or {@code tail} (with a tailer) ({@code --mode})
 * @param extras      the harness's own options, by name with their leading dashes, as given or defaulted
 */
record ThroughputOptions(long messages, int runs, long segmentSize, Path parent, String mode, Map<String, String> extras) {
    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /**
     * Parses {@code args}.
     *
     * @param extras the harness's own options with their defaults, e.g. {@code --wait=park}
     * @param usage  the list of options, for the error message
     * @throws IllegalArgumentException for an unknown option, a missing value or a bad mode
     */
    static ThroughputOptions parse(String[] args, Map<String, String> extras, String usage) {
        long messages = 20_000_000;
        int runs = 3;
        long segmentSize = BlitQueue.DEFAULT_SEGMENT_SIZE;
        Path parent = Path.of(System.getProperty("java.io.tmpdir"));
        String mode = "both";
        Map<String, String> given = new LinkedHashMap<>(extras);
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--messages" -> messages = Long.parseLong(value.replace("_", ""));
                case "--runs" -> runs = Integer.parseInt(value);
                case "--segment-size" -> segmentSize = parseSize(value);
                case "--dir" -> parent = Path.of(value);
                case "--mode" -> mode = value;
                default -> {
                    if (!given.containsKey(args[i])) {
                        throw new IllegalArgumentException("unknown option " + args[i] + " (options: " + usage + ")");
                    }
                    given.put(args[i], value);
                }
            }
        }
        if (!List.of("both", "append", "tail").contains(mode)) {
            throw new IllegalArgumentException("--mode must be both, append or tail, not " + mode);
        }
        return new ThroughputOptions(messages, runs, segmentSize, parent, mode, Map.copyOf(given));
    }

    /** The value of the harness's own option {@code name} (e.g. {@code --wait}). */
    String extra(String name) {
        String value = extras.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no option " + name);
        }
        return value;
    }

    boolean appendAlone() {
        return !mode.equals("tail");
    }

    boolean withTailer() {
        return !mode.equals("append");
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

    private static long parseSize(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        long unit = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : t.endsWith("g") ? 1L << 30 : 1;
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }
}
