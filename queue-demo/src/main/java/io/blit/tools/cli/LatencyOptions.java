package io.blit.tools.cli;

import io.blit.cli.CliSupport;
import io.blit.queue.WaitStrategy;
import io.blit.tools.latency.LatencyKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options {@code bench} and {@code demo} share (a picocli mixin). An option not given is null: each command
 * has its own defaults ({@link LatencyCommand}). Filled by picocli, then read only; not thread-safe.
 */
final class LatencyOptions {
    @Option(names = "--kind", paramLabel = "K", converter = KindsConverter.class, description = {
            "tc: trivially copyable BookUpdate (one Blit copy each way, bench's default)",
            "normal: the same content as a normal object (Strings, Lists) via ObjectOutputStream",
            "md: trivially copyable MarketData",
            "replicated: tc appended on a source queue, read from a replica following it over Aeron UDP on the "
                    + "loopback (docs/replication.md)",
            "aeron-floor: no queue, one BookUpdate-sized Aeron UDP message: the floor of replicated",
            "floor: no queue, one shared cache line per message through the same send and receive loops: what "
                    + "the harness and the machine cost by themselves",
            "several kinds comma-separated, or \"both\" = tc,normal"})
    Kinds kinds;

    @Option(names = "--mode", paramLabel = "M", converter = ModeConverter.class, description = {
            "thread (bench's default): producer and consumer threads in this JVM",
            "process: a producer JVM and a consumer JVM (same java binary and class path)"})
    Mode mode;

    @Option(names = "--rate", paramLabel = "R", description = "messages per second (bench's default 100000)")
    Long rate;

    @Option(names = "--count", paramLabel = "N", description = "messages per measured run (bench's default 200000)")
    Long count;

    @Option(names = "--runs", paramLabel = "K", description = "measured runs (default 5, at most 1000)")
    Long runs;

    @Option(names = "--rounds", paramLabel = "N", description = "run every kind N times in turn (default 1), each "
            + "round with its own warm-up and --runs runs; a kind's table then has N x K runs. Rounds spread each kind "
            + "over the whole invocation, so that a machine whose core-to-core latency changes over time (a VM whose "
            + "vCPUs the host moves) treats the kinds alike")
    Long rounds;

    @Option(names = "--warmup", paramLabel = "W", description = "warm-up messages, not recorded (bench's default "
            + "200000: at 100,000 msg/s the JIT was still compiling the send and receive paths 0.7 s after the "
            + "first message)")
    Long warmup;

    @Option(names = "--wait", paramLabel = "S", converter = WaitConverter.class,
            description = "consumer's wait between empty polls: busy (spin, default), yield, park")
    WaitStrategy wait;

    @Option(names = "--pin", description = "process mode: pin producer and consumer to CPUs 0 and 1 with taskset, "
            + "where available (Java threads cannot be pinned without native code: thread mode ignores it)")
    boolean pin;

    @Option(names = "--json", paramLabel = "FILE", description = "also write every figure as JSON to FILE, the "
            + "percentile chart as SVG next to it (FILE with .json replaced by .svg) and every run's histogram as an "
            + "HdrHistogram interval log (.hlog, tagged with the kind)")
    Path json;

    @Option(names = "--dir", paramLabel = "D",
            description = "where to create the temporary queue directory (default: java.io.tmpdir)")
    Path dir;

    @Option(names = "--checksums", description = "the queue's records carry checksums (QueueOptions.recordChecksums):"
            + " each message's CRC32C written by the producer and verified by the consumer")
    boolean checksums;

    @Option(names = "--segment-size", paramLabel = "B", converter = CliSupport.ByteSize.class, description = "queue "
            + "file size in bytes (65536, 64k, 256m, 1g); default: large enough for the whole run (up to 1 GiB), so "
            + "no file is created while measuring")
    Long segmentSize;

    /** Where producer and consumer run. */
    enum Mode {
        THREAD, PROCESS;

        /** The name on the command line and in the output: {@code thread} or {@code process}. */
        String cliName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The kinds of {@code --kind}, in the order given, each once. */
    record Kinds(List<LatencyKind> list) {
        Kinds {
            list = List.copyOf(list);
        }
    }

    static final class KindsConverter implements ITypeConverter<Kinds> {
        @Override
        public Kinds convert(String value) {
            try {
                return new Kinds(LatencyCommand.kinds(value));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class ModeConverter implements ITypeConverter<Mode> {
        @Override
        public Mode convert(String value) {
            return switch (value) {
                case "thread" -> Mode.THREAD;
                case "process" -> Mode.PROCESS;
                default -> throw new TypeConversionException("must be thread or process, got '" + value + "'");
            };
        }
    }

    static final class WaitConverter implements ITypeConverter<WaitStrategy> {
        @Override
        public WaitStrategy convert(String value) {
            return switch (value) {
                case "busy" -> WaitStrategy.BUSY_SPIN;
                case "yield" -> WaitStrategy.YIELD;
                case "park" -> WaitStrategy.PARK;
                default -> throw new TypeConversionException("must be busy, yield or park, got '" + value + "'");
            };
        }
    }
}
