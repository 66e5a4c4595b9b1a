package io.blit.queue.internal.sidecar;

import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child JVM for {@link ConsumerSlotReuseConcurrencyTest}: {@code CreationLockHolder <dir>} takes the consumer
 * creation lock of queue directory {@code dir} as a stopped creator would hold it (an exclusive lock of byte
 * {@value WriterRegistry#CONSUMER_CREATION_LOCK} of its {@code writers.blitw}), prints "locked", and keeps it until a
 * line arrives on stdin.
 */
public final class CreationLockHolder {
    private CreationLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]).resolve(WriterRegistry.NAME);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.lock(WriterRegistry.CONSUMER_CREATION_LOCK, 1, false);
            System.out.println("locked");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
