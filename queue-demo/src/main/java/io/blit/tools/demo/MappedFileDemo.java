package io.blit.tools.demo;

import io.blit.cli.BadInputException;
import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.core.BlockCopier;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * The smallest end-to-end example, without the queue: writes a million {@link MarketData} objects
 * to a memory-mapped file with one bulk copy each, reads them back into one reused object, checks
 * every field, and prints counts and times. The file lives in a temporary directory and is deleted.
 *
 * <p>Usage: {@code MappedFileDemo [COUNT]} (default 1,000,000); {@code --help}, {@code --version}.
 */
@Command(name = "MappedFileDemo", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "Writes COUNT MarketData objects to a memory-mapped file with one bulk copy each, reads them "
                + "back, checks every field and prints counts and times.",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class MappedFileDemo implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "COUNT", defaultValue = "1000000",
            description = "messages to write and read (default 1,000,000)")
    private long count;

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new MappedFileDemo()), System.out,
                System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() throws IOException {
        if (count <= 0) {
            throw new BadInputException("COUNT must be positive, got " + count);
        }
        Path dir = Files.createTempDirectory("blit-demo");
        Path file = dir.resolve("market-data.bin");
        try {
            run(file, count);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
        return CliSupport.OK;
    }

    private static void run(Path file, long count) throws IOException {
        MarketData message = new MarketData();
        long slot = message.byteSize();
        System.out.println(message.layout().describe());
        System.out.println("engine    " + BlockCopier.of(MarketData.class).engine());
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, slot * count, arena);

            long writeStart = System.nanoTime();
            for (long n = 0; n < count; n++) {
                message.fillFor(n, n).writeTo(mapped, n * slot);
            }
            long writeNanos = System.nanoTime() - writeStart;

            long readStart = System.nanoTime();
            long bad = 0;
            for (long n = 0; n < count; n++) {
                message.readFrom(mapped, n * slot);
                if (!message.isConsistentFor(n) || message.time != n) {
                    bad++;
                }
            }
            long readNanos = System.nanoTime() - readStart;

            System.out.printf("file      %s (%,d bytes, %d bytes per message)%n", file, slot * count, slot);
            System.out.printf("written   %,d MarketData in %,d ms (%.1f ns/message, fill included)%n",
                    count, writeNanos / 1_000_000, (double) writeNanos / count);
            System.out.printf("read      %,d MarketData in %,d ms (%.1f ns/message, check included)%n",
                    count, readNanos / 1_000_000, (double) readNanos / count);
            System.out.printf("verified  %,d ok, %,d bad%n", count - bad, bad);
            if (bad != 0) {
                throw new IllegalStateException(bad + " messages read back wrong");
            }
        }
    }
}
