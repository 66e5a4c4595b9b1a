package io.blit.core;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Child JVM main for {@link UnsafeQuietTest}: what an application's first copies do, with the default
 * engine only (chosen by the JVM's flags and {@code -Dio.blit.core.engine}) — a {@link TriviallyCopyable} subclass written and read through confined, shared, global,
 * heap and mapped segments, and a {@link BlockCopier} of another class — then prints the default
 * engine and one value read back.
 */
public final class FirstCopyMain {
    private FirstCopyMain() {
    }

    public static void main(String[] args) throws IOException {
        TestCopyables.MixedSizes source = new TestCopyables.MixedSizes();
        source.id = 42;
        source.last = 7;
        TestCopyables.MixedSizes target = new TestCopyables.MixedSizes();
        Path file = Files.createTempFile("blit-first-copy", ".bin");
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment[] segments = {
                confined.allocate(256), shared.allocate(256), Arena.global().allocate(256), MemorySegment.ofArray(new long[32]),
                channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096, confined)};
            for (MemorySegment segment : segments) {
                source.writeTo(segment, 3);
                target.readFrom(segment, 3);
            }
            BlockCopier<TestCopyables.Quote> quotes = BlockCopier.of(TestCopyables.Quote.class);
            TestCopyables.Quote quote = new TestCopyables.Quote();
            quote.securityId = target.id;
            quotes.writeTo(quote, segments[0], 0);
            quotes.readFrom(segments[0], 0, quote);
            System.out.println("engine " + BlockCopier.of(TestCopyables.MixedSizes.class).engine() + " " + quotes.engine());
            System.out.println("copied " + quote.securityId + " " + target.last);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
