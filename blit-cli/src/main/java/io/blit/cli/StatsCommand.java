package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.QueueStats;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code stats}: a queue's end index, files, bytes, append rate and every named consumer's lag, once or each second. */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print a queue's figures: end, files, bytes, append rate, consumers' lag.",
                "",
                "Takes two samples a second apart and prints, for the second, one line for the queue and one line per "
                        + "named consumer (in the order they were created):",
                "  TIME queue end E files F bytes B rate R/s",
                "  TIME consumer NAME committed C lag L",
                "E is the queue's end index, the index the next append gets: the index after the newest file's last "
                        + "record, committed, abandoned or still claimed by a writer (docs/format.md, \"The end "
                        + "index\"), R the messages appended per second between the two "
                        + "samples (by every appender of every process), C and L as the consumers command gives them. "
                        + "With --watch it goes on printing a sample every second (--count N samples, default: until "
                        + "interrupted). Opens the queue read-only and creates nothing.",
                "",
                "Example: 2026-11-26T10:15:31.002Z queue end 1200345 files 3 bytes 201326592 rate 100012.0/s",
                "",
                "With --json, one JSON object per sample, one per line: {\"time\", \"end\", \"files\", "
                        + "\"bytes\", \"rate\", \"consumers\": [{\"name\", \"committed\", \"lag\"}, ...]} "
                        + "(docs/operations.md, \"JSON output\").",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
public final class StatsCommand implements Callable<Integer> {
    private final PrintStream out;
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--json", description = "print each sample as one JSON object on one line")
    private boolean json;

    @Option(names = "--watch", description = "print a sample every second")
    private boolean watch;

    @Option(names = "--count", paramLabel = "N", description = "with --watch: stop after N samples (default: never)")
    private long count = Long.MAX_VALUE;

    /** @param out where the command prints */
    public StatsCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be >= 1");
        }
        QueueFiles.existingQueue(dir);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            queue.stats(); // the base of the first rate
            long samples = watch ? count : 1;
            long next = System.nanoTime();
            for (long i = 0; i < samples; i++) {
                next += 1_000_000_000L;
                long wait;
                while ((wait = next - System.nanoTime()) > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                print(queue.stats());
            }
        }
        return CliSupport.OK;
    }

    private void print(QueueStats stats) {
        if (json) {
            out.println(json(stats));
            out.flush();
            return;
        }
        String at = stats.sampledAt().toString();
        out.println(at + " queue end " + stats.endIndex() + " files " + stats.files() + " bytes " + stats.bytes()
                + " rate " + String.format(Locale.ROOT, "%.1f", stats.appendRatePerSecond()) + "/s");
        for (ConsumerPosition consumer : stats.consumers()) {
            out.println(at + " consumer " + consumer.name() + " committed " + consumer.committedIndex() + " lag "
                    + consumer.lag());
        }
        out.flush();
    }

    /** The {@code --json} object of one sample. */
    static String json(QueueStats stats) {
        JsonWriter json = new JsonWriter().beginObject().member("time", stats.sampledAt().toString())
                .member("end", stats.endIndex()).member("files", stats.files()).member("bytes", stats.bytes());
        json.name("rate").value(stats.appendRatePerSecond()).name("consumers").beginArray();
        for (ConsumerPosition consumer : stats.consumers()) {
            json.beginObject().member("name", consumer.name()).member("committed", consumer.committedIndex())
                    .member("lag", consumer.lag()).endObject();
        }
        return json.endArray().endObject().toString();
    }
}
