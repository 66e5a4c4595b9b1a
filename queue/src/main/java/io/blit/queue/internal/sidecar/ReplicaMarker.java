package io.blit.queue.internal.sidecar;

import io.blit.queue.internal.file.FileModes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The file {@code replica-of} in a queue directory that only replication writes: its presence makes the queue refuse
 * local appenders (in every process: the check is a file, not a flag in memory), its text names the source. Created
 * by {@code ReplicaWriter.open} before the replica's first file; deleted only by a promotion
 * ({@code QueueTerms.promote}, docs/failover.md), as its last step.
 */
public final class ReplicaMarker {
    /** The marker's file name in the queue directory. */
    public static final String NAME = "replica-of";

    private ReplicaMarker() {
    }

    /**
     * The source the marker of {@code dir} names, or null if {@code dir} is not a replica. A marker that is a symbolic
     * link is a marker all the same (appenders are refused), and is never read.
     */
    public static String sourceOf(Path dir) {
        Path file = dir.resolve(NAME);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException notAReplica) {
            return null;
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) {
                return "(a symbolic link " + file + ", not followed)";
            }
            throw new UncheckedIOException("cannot read the replica marker of queue " + dir, e);
        }
    }

    /**
     * Marks {@code dir} as a replica of {@code source} (replacing the source it named, if any); with
     * {@code privateFiles} a directory created here is {@code rwx------} and the marker {@code rw-------}
     * ({@link FileModes}). The marker is never written through a symbolic link (one planted in a directory others
     * may write would make the replica truncate its target).
     *
     * @throws IllegalStateException if the marker is a symbolic link
     * @throws UncheckedIOException  if the file system fails
     */
    public static void mark(Path dir, String source, boolean privateFiles) {
        Path file = dir.resolve(NAME);
        try {
            FileModes.createDirectories(dir, privateFiles);
            requireNoLink(file, "replica " + dir);
            Set<OpenOption> options = Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS); // a link planted since: ELOOP
            try (FileChannel marker = FileModes.open(file, privateFiles, options)) {
                ByteBuffer text = ByteBuffer.wrap((source + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
                while (text.hasRemaining()) {
                    marker.write(text);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark queue " + dir + " as a replica", e);
        }
    }

    /**
     * Deletes the marker of {@code dir} and forces the directory, so that the deletion survives a crash: the queue
     * takes appenders from then on.
     *
     * @return whether there was a marker
     * @throws UncheckedIOException if the file system fails
     */
    public static boolean remove(Path dir) {
        try {
            boolean removed = Files.deleteIfExists(dir.resolve(NAME));
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            }
            return removed;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the replica marker of queue " + dir, e);
        }
    }

    /**
     * Refuses {@code file} if it is a symbolic link: a replica's files are created and opened only as themselves.
     *
     * @param file the file about to be created or opened
     * @param what who refuses, for the message (e.g. {@code replica /data/q})
     * @throws IllegalStateException naming the link, where it points and what to do
     */
    public static void requireNoLink(Path file, String what) {
        if (Files.isSymbolicLink(file)) {
            String target;
            try {
                target = Files.readSymbolicLink(file).toString();
            } catch (IOException e) {
                target = "?";
            }
            throw new IllegalStateException(what + ": " + file + " is a symbolic link (to " + target + "), which a"
                    + " replica never follows; delete it, and let nobody but the replica's user write "
                    + file.getParent());
        }
    }
}
