package io.blit.queue.internal.sidecar;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.file.FileModes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Set;

/**
 * The file {@code replica-id} in a replica directory: the replica's identity, a random non-zero u64 drawn once from
 * {@link SecureRandom} when the directory first becomes a replica and never changed, so that a source tells replicas
 * apart by what they hold, not by the endpoint they happen to receive on. 16 bytes, little-endian: the magic
 * {@code "BLITRID"} and a zero byte, then the id (docs/format.md, "Replica identity").
 *
 * <p>Crash safety: the file is written under a temporary name, forced, and published by {@code link(2)}, so under its
 * name it is always whole; a process killed before the link leaves only the temporary, which the next creation
 * replaces. Neither name is ever created, written or read through a symbolic link. Callers hold the replica's lock
 * ({@code ReplicaLock}), so no two processes create it at once. Stateless; thread-safe.
 */
public final class ReplicaIdentity {
    /** The file's name in the replica directory. */
    public static final String NAME = "replica-id";
    static final byte[] MAGIC = {'B', 'L', 'I', 'T', 'R', 'I', 'D', 0};
    static final int LENGTH = 16;
    private static final String TEMPORARY = NAME + ".tmp";

    private ReplicaIdentity() {
    }

    /**
     * {@return the identity of the replica in {@code dir}, created if the directory has none yet}
     *
     * @param dir          an existing replica directory whose lock the caller holds
     * @param privateFiles create the file {@code rw-------} ({@link FileModes})
     * @throws IllegalStateException   if the file or its temporary is a symbolic link
     * @throws QueueCorruptedException if the file is not 16 bytes of this format with a non-zero id
     * @throws UncheckedIOException    if the file system fails
     */
    public static long readOrCreate(Path dir, boolean privateFiles) {
        Path file = dir.resolve(NAME);
        ReplicaMarker.requireNoLink(file, "replica " + dir);
        try {
            try {
                return read(file);
            } catch (NoSuchFileException absent) {
                return create(dir, file, privateFiles);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the identity " + file + " of replica " + dir, e);
        }
    }

    private static long read(Path file) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(LENGTH + 1).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // reads up to one byte more than the format has, to tell a longer file
            }
        }
        byte[] magic = Arrays.copyOf(bytes.array(), MAGIC.length);
        long id = bytes.getLong(MAGIC.length);
        if (bytes.position() != LENGTH || !Arrays.equals(magic, MAGIC) || id == 0) {
            throw new QueueCorruptedException(file, 0, "not a replica identity (16 bytes: BLITRID, a zero byte and a"
                    + " non-zero id); delete it to give the replica a new identity, which its source then serves as"
                    + " another replica");
        }
        return id;
    }

    private static long create(Path dir, Path file, boolean privateFiles) throws IOException {
        long id = 0;
        SecureRandom random = new SecureRandom();
        while (id == 0) {
            id = random.nextLong();
        }
        ByteBuffer bytes = ByteBuffer.allocate(LENGTH).order(ByteOrder.LITTLE_ENDIAN).put(MAGIC).putLong(id).flip();
        Path temporary = dir.resolve(TEMPORARY);
        Files.deleteIfExists(temporary); // left by a process killed before its link; a link itself is deleted, not followed
        try (FileChannel channel = FileModes.open(temporary, privateFiles, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        try {
            Files.createLink(file, temporary); // never replaces: a file (or link) of that name fails it
        } catch (FileAlreadyExistsException raced) {
            Files.deleteIfExists(temporary);
            return read(file);
        }
        Files.deleteIfExists(temporary);
        forceDirectory(dir);
        return id;
    }

    /** Makes the new name durable: on Linux, forcing the directory persists its entries. */
    private static void forceDirectory(Path dir) {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException | UnsupportedOperationException notSupported) {
            // some platforms cannot open a directory: the entry then becomes durable with the file system's next sync
        }
    }
}
