package io.blit.queue.internal.sidecar;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.TermHistory;
import io.blit.queue.internal.file.FileModes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The file {@code terms.blitt} in a queue directory: the queue's {@link TermHistory}. Small (48 bytes and 24 a term),
 * written whole and replaced atomically: a new file under a temporary name, forced, renamed over the old one, and the
 * directory forced, so that a crash leaves the old history or the new one, never a mix. Read without following links.
 * Every field is little-endian; the layout is in docs/format.md ("The term history").
 *
 * <pre>
 * 0   magic "BLITTRM\0"             8 bytes
 * 8   version u32 (1)
 * 12  header length u32 (48)
 * 16  incompatible features u32 (0: a reader refuses a bit it does not know)
 * 20  compatible features u32 (0: a reader ignores bits it does not know)
 * 24  queue id: most, then least significant 64 bits of the UUID
 * 40  term count u32, 1 to 4096
 * 44  CRC32C u32 of the header (this field as 0) and the terms
 * 48  terms: number u64, first index u64, origin u64, each
 * </pre>
 *
 * <p>Not thread-safe across writers: the queue writes it only under its directory's creation lock or a promotion,
 * which the caller serialises.
 */
public final class TermHistoryFile {
    /** The file's name in the queue directory. */
    public static final String NAME = "terms.blitt";

    static final byte[] MAGIC = "BLITTRM\0".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int HEADER_LENGTH = 48;
    static final int TERM_LENGTH = 24;
    static final int VERSION_OFFSET = 8;
    static final int INCOMPATIBLE_OFFSET = 16;
    static final int COUNT_OFFSET = 40;
    static final int CRC_OFFSET = 44;

    private TermHistoryFile() {
    }

    /**
     * Reads the history of the queue in {@code dir}.
     *
     * @return the history, or null if the directory holds no {@value #NAME} (a queue of a build before terms)
     * @throws QueueCorruptedException if the file is not a term history this build reads, naming file, offset and value
     * @throws UncheckedIOException    if it cannot be read, or is a link or not a regular file
     */
    public static TermHistory read(Path dir) {
        Path file = dir.resolve(NAME);
        byte[] bytes;
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                throw new IOException("not a regular file");
            }
            long size = attributes.size();
            if (size > HEADER_LENGTH + (long) TERM_LENGTH * TermHistory.MAX_TERMS) {
                throw new QueueCorruptedException(file, 0, "a term history of " + size + " bytes is larger than any");
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer buffer = ByteBuffer.allocate((int) size);
                while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                    // reads until full or the end
                }
                bytes = buffer.array();
                if (buffer.hasRemaining()) {
                    throw new QueueCorruptedException(file, buffer.position(), "the file shrank while it was read");
                }
            }
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the term history " + file + ": " + e.getMessage(), e);
        }
        return decode(file, bytes);
    }

    /**
     * Decodes a history; every byte checked before it is used.
     *
     * @param file  the file, for the errors
     * @param bytes its contents
     * @throws QueueCorruptedException if they are not a term history this build reads
     */
    static TermHistory decode(Path file, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < HEADER_LENGTH) {
            throw new QueueCorruptedException(file, bytes.length, "truncated: " + bytes.length
                    + " bytes, the header alone is " + HEADER_LENGTH);
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw new QueueCorruptedException(file, 0, "not a Blit term history (magic is not \"BLITTRM\\0\")");
            }
        }
        int version = in.getInt(VERSION_OFFSET);
        if (version != VERSION) {
            throw new QueueCorruptedException(file, VERSION_OFFSET, "term history version " + version
                    + "; this build reads version " + VERSION);
        }
        int headerLength = in.getInt(12);
        if (headerLength != HEADER_LENGTH) {
            throw new QueueCorruptedException(file, 12, "header length " + headerLength + ", expected " + HEADER_LENGTH);
        }
        int incompatible = in.getInt(INCOMPATIBLE_OFFSET);
        if (incompatible != 0) {
            throw new QueueCorruptedException(file, INCOMPATIBLE_OFFSET, "incompatible features 0x"
                    + Integer.toHexString(incompatible) + " that this build does not know");
        }
        int count = in.getInt(COUNT_OFFSET);
        if (count < 1 || count > TermHistory.MAX_TERMS) {
            throw new QueueCorruptedException(file, COUNT_OFFSET, "term count " + Integer.toUnsignedString(count)
                    + ", not 1 to " + TermHistory.MAX_TERMS);
        }
        long expectedLength = HEADER_LENGTH + (long) TERM_LENGTH * count;
        if (bytes.length != expectedLength) {
            throw new QueueCorruptedException(file, Math.min(bytes.length, expectedLength), bytes.length
                    + " bytes, but " + count + " terms take " + expectedLength);
        }
        int stored = in.getInt(CRC_OFFSET);
        if (stored != crc(bytes)) {
            throw new QueueCorruptedException(file, CRC_OFFSET, "CRC32C mismatch: the term history is damaged");
        }
        UUID id = new UUID(in.getLong(24), in.getLong(32));
        List<TermHistory.Term> terms = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = HEADER_LENGTH + i * TERM_LENGTH;
            try {
                terms.add(new TermHistory.Term(in.getLong(at), in.getLong(at + 8), in.getLong(at + 16)));
            } catch (IllegalArgumentException e) {
                throw new QueueCorruptedException(file, at, e.getMessage(), e);
            }
        }
        try {
            return new TermHistory(id, terms);
        } catch (IllegalArgumentException e) {
            throw new QueueCorruptedException(file, HEADER_LENGTH, e.getMessage(), e);
        }
    }

    /** {@return the file's bytes for {@code history}} */
    static byte[] encode(TermHistory history) {
        int count = history.terms().size();
        ByteBuffer out = ByteBuffer.allocate(HEADER_LENGTH + TERM_LENGTH * count).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putInt(VERSION).putInt(HEADER_LENGTH).putInt(0).putInt(0)
                .putLong(history.queueId().getMostSignificantBits())
                .putLong(history.queueId().getLeastSignificantBits())
                .putInt(count).putInt(0);
        for (TermHistory.Term term : history.terms()) {
            out.putLong(term.number()).putLong(term.firstIndex()).putLong(term.origin());
        }
        byte[] bytes = out.array();
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(CRC_OFFSET, crc(bytes));
        return bytes;
    }

    /**
     * Replaces the history of the queue in {@code dir} with {@code history}, atomically and durably (see the class).
     *
     * @param privateFiles whether the file is created {@code rw-------} ({@link FileModes})
     * @param tag          the writer's tag for the temporary's name ({@code terms.blitt.tmp-<tag>})
     * @throws UncheckedIOException if it cannot be written; the old history is then unchanged
     */
    public static void write(Path dir, TermHistory history, boolean privateFiles, String tag) {
        Path file = dir.resolve(NAME);
        Path temporary = dir.resolve(NAME + ".tmp-" + tag);
        try {
            writeTemporary(temporary, history, privateFiles);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true); // the rename itself survives a crash only once the directory is on disk
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // the temporary is named after this writer and replaced by its next attempt
            }
            throw new UncheckedIOException("cannot write the term history " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@return the history of the queue in {@code dir}, created as {@code initial} if it has none} Atomic among
     * processes: the new file is written whole under a temporary name, forced, then hard-linked to its final name,
     * which fails if another process got there first; then that one's history is returned.
     *
     * @throws QueueCorruptedException if an existing file is not a term history this build reads
     * @throws UncheckedIOException    if it cannot be read or written
     */
    public static TermHistory createIfAbsent(Path dir, TermHistory initial, boolean privateFiles, String tag) {
        TermHistory existing = read(dir);
        if (existing != null) {
            return existing;
        }
        Path file = dir.resolve(NAME);
        Path temporary = dir.resolve(NAME + ".tmp-" + tag);
        try {
            writeTemporary(temporary, initial, privateFiles);
            try {
                Files.createLink(file, temporary);
            } catch (java.nio.file.FileAlreadyExistsException lost) {
                return read(dir); // another process created it between our read and our link: theirs stands
            }
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                directory.force(true);
            }
            return initial;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the term history " + file + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // the temporary is named after this writer and replaced by its next attempt
            }
        }
    }

    /** Writes {@code history} whole into a new file {@code temporary} (replacing a stale one) and forces it. */
    private static void writeTemporary(Path temporary, TermHistory history, boolean privateFiles) throws IOException {
        Files.deleteIfExists(temporary);
        try (FileChannel out = FileModes.open(temporary, privateFiles, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
            ByteBuffer bytes = ByteBuffer.wrap(encode(history));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, CRC_OFFSET);
        crc.update(new byte[4]);
        crc.update(bytes, HEADER_LENGTH, bytes.length - HEADER_LENGTH);
        return (int) crc.getValue();
    }
}
