package io.blit.queue.replica;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.ConsumerFormat;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import io.blit.queue.internal.sidecar.FenceFile;
import io.blit.queue.internal.sidecar.ReplicaIdentity;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import io.blit.queue.internal.writer.WriterRegistry;
import io.blit.queue.replica.QueueVerifier.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

/**
 * The part of {@code blit check} that verifies a queue directory's sidecar files (docs/format.md): the term history,
 * the fence, writer liveness, the consumers' positions, the replica identity and marker. Each file is read as its
 * owner reads it (headers, CRCs, versions, byte order, features), then every field the format constrains is checked
 * against its range; a file that is absent is no problem (each is optional, docs/format.md "A queue directory").
 *
 * <p>What no check can see: a damaged bit of a word a writer updates in place, on the hot path, with no checksum
 * beside it (a consumer's committed index or last commit time within their ranges, writer liveness's next id, the
 * fence word at or below 2^32 - 1). Those are checked for range and consistency only.
 *
 * <p>Reads only; maps nothing writable. Stateless; thread-safe.
 */
final class SidecarVerifier {
    private static final ValueLayout.OfLong NATIVE_LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final byte[] WRITERS_MAGIC = {'B', 'L', 'I', 'T', 'W', 'R', 'T', 0};
    private static final long WRITERS_INFO_OFFSET = 4096;
    private static final int WRITERS_INFO_ENTRIES = 1024;
    private static final int WRITERS_INFO_LENGTH = 32;
    private static final byte[] REPLICA_ID_MAGIC = {'B', 'L', 'I', 'T', 'R', 'I', 'D', 0};
    /** Terms are u32 (docs/format.md, "File header"): a fence word above this is damaged. */
    private static final long MAX_TERM = 0xFFFF_FFFFL;
    /** A last commit later than now by more than this is damaged (clocks of one machine's processes agree). */
    private static final long FUTURE_SLACK_MILLIS = TimeUnit.DAYS.toMillis(1);

    private SidecarVerifier() {
    }

    /**
     * Verifies the sidecar files of {@code dir}, adding each problem found.
     *
     * @param end the queue's end index as the segment files' walk found it, or -1 if unknown (consumers' committed
     *            indices are then checked against nothing above)
     */
    static void verify(Path dir, long end, List<Problem> problems) {
        terms(dir, problems);
        fence(dir, problems);
        writers(dir, problems);
        // a replica's consumers are its source's, whose commits may be ahead of what the replica holds
        consumers(dir, Files.exists(dir.resolve(ReplicaMarker.NAME), LinkOption.NOFOLLOW_LINKS) ? -1 : end, problems);
        replicaIdentity(dir, problems);
        replicaMarker(dir, problems);
    }

    private static void terms(Path dir, List<Problem> problems) {
        try {
            TermHistoryFile.read(dir); // one CRC32C over the whole file: every byte
        } catch (QueueCorruptedException e) {
            problems.add(new Problem(e.file(), e.offset(), -1, reason(e)));
        } catch (UncheckedIOException e) {
            problems.add(new Problem(dir.resolve(TermHistoryFile.NAME), 0, -1, e.getMessage()));
        }
    }

    private static void fence(Path dir, List<Problem> problems) {
        Path file = dir.resolve(FenceFile.NAME);
        try {
            long term = FenceFile.read(dir); // the header's CRC32C; the word is outside it (raised in place)
            if (term > MAX_TERM || term < -1) {
                problems.add(new Problem(file, FenceFile.WORD_OFFSET, -1, "fence term " + Long.toUnsignedString(term)
                        + " is above 4294967295, the highest term"));
            }
        } catch (QueueCorruptedException e) {
            problems.add(new Problem(e.file(), e.offset(), -1, reason(e)));
            return;
        } catch (UncheckedIOException | IllegalStateException e) {
            problems.add(new Problem(file, 0, -1, e.getMessage()));
            return;
        }
        byte[] bytes = read(file, FenceFile.LENGTH, problems); // the reserved bytes after the word, outside the CRC
        if (bytes != null && bytes.length == FenceFile.LENGTH) {
            zeros(file, MemorySegment.ofArray(bytes), FenceFile.WORD_OFFSET + 8, FenceFile.LENGTH,
                    "reserved bytes after the fence word", problems);
        }
    }

    private static void writers(Path dir, List<Problem> problems) {
        Path file = dir.resolve(WriterRegistry.NAME);
        byte[] bytes = read(file, WRITERS_INFO_OFFSET + (long) WRITERS_INFO_ENTRIES * WRITERS_INFO_LENGTH, problems);
        if (bytes == null) {
            return;
        }
        MemorySegment in = MemorySegment.ofArray(bytes);
        if (bytes.length < WriterRegistry.HEADER_LENGTH) {
            problems.add(new Problem(file, bytes.length, -1, "truncated: " + bytes.length + " bytes, the header alone is "
                    + WriterRegistry.HEADER_LENGTH));
            return;
        }
        if (MemorySegment.mismatch(in, 0, 8, MemorySegment.ofArray(WRITERS_MAGIC), 0, 8) != -1) {
            problems.add(new Problem(file, 0, -1, "not a Blit writer liveness file (magic is not \"BLITWRT\\0\")"));
            return;
        }
        int version = in.get(LE_INT, 8);
        if (version != 1) {
            problems.add(new Problem(file, 8, -1, "format version " + version + ", this build reads 1"));
            return;
        }
        String order = FileFeatures.byteOrderProblem(in.get(LE_INT, WriterRegistry.BYTE_ORDER_OFFSET));
        if (order != null) {
            problems.add(new Problem(file, WriterRegistry.BYTE_ORDER_OFFSET, -1, order));
        }
        String features = FileFeatures.incompatibleProblem(in.get(LE_LONG, WriterRegistry.INCOMPATIBLE_OFFSET));
        if (features != null) {
            problems.add(new Problem(file, WriterRegistry.INCOMPATIBLE_OFFSET, -1, features));
        }
        long next = in.get(LE_LONG, 16);
        if (next < 0 || next > WriterRegistry.MAX_ID + 1) {
            problems.add(new Problem(file, 16, -1, "next writer id " + Long.toUnsignedString(next) + " is not 0 to "
                    + (WriterRegistry.MAX_ID + 1)));
        }
        zeros(file, in, 40, WriterRegistry.HEADER_LENGTH, "reserved header bytes", problems);
        zeros(file, in, WriterRegistry.HEADER_LENGTH, Math.min(bytes.length, WRITERS_INFO_OFFSET), "bytes before the "
                + "info entries", problems);
        for (int k = 0; k < WRITERS_INFO_ENTRIES; k++) {
            long at = WRITERS_INFO_OFFSET + (long) k * WRITERS_INFO_LENGTH;
            if (at + WRITERS_INFO_LENGTH > bytes.length) {
                zeros(file, in, Math.min(at, bytes.length), bytes.length, "a partial info entry", problems);
                break;
            }
            long id = in.get(LE_LONG, at);
            long pid = in.get(LE_LONG, at + 8);
            long start = in.get(LE_LONG, at + 16);
            long reserved = in.get(LE_LONG, at + 24);
            if (id == 0 && pid == 0 && start == 0 && reserved == 0) {
                continue; // never written
            }
            if (id < 1 || id > WriterRegistry.MAX_ID || id % WRITERS_INFO_ENTRIES != k) {
                problems.add(new Problem(file, at, -1, "info entry " + k + " names writer id " + Long.toUnsignedString(id)
                        + ", which is not 1 to " + WriterRegistry.MAX_ID + " and " + k + " modulo "
                        + WRITERS_INFO_ENTRIES));
            } else if (pid < 1 || start < 0 || reserved != 0) {
                problems.add(new Problem(file, at + 8, -1, "info entry of writer " + id + ": pid " + pid
                        + ", start " + start + ", reserved " + reserved + " (a pid of at least 1, a start of at least 0"
                        + " and a reserved word of 0 expected)"));
            }
        }
    }

    private static void consumers(Path dir, long end, List<Problem> problems) {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots;
            try {
                slots = ConsumerFile.mapExisting(dir, arena, true, null); // the header: magic, version, CRC, order
            } catch (QueueCorruptedException e) {
                problems.add(new Problem(e.file(), e.offset(), -1, reason(e)));
                return;
            } catch (UncheckedIOException | IllegalStateException e) {
                problems.add(new Problem(ConsumerFile.path(dir), 0, -1, e.getMessage()));
                return;
            }
            if (slots == null) {
                return;
            }
            Path file = ConsumerFile.path(dir);
            byte[] bytes = read(file, ConsumerFile.HEADER_LENGTH + (long) slots.slotCount() * ConsumerFile.SLOT_SIZE,
                    problems); // a copy: the words of live consumers change under a mapping
            if (bytes != null && bytes.length == ConsumerFile.HEADER_LENGTH + slots.slotCount() * ConsumerFile.SLOT_SIZE) {
                new ConsumerSlotCheck(file, MemorySegment.ofArray(bytes), slots.slotCount(), end,
                        System.currentTimeMillis() + FUTURE_SLACK_MILLIS, problems).run();
            }
        }
    }

    /** The slots of a positions file, one by one (docs/format.md, "The positions file"). */
    private record ConsumerSlotCheck(Path file, MemorySegment mapped, int slotCount, long end, long latestCommit,
                                     List<Problem> problems) {
        void run() {
            Map<String, Integer> ready = new HashMap<>();
            int firstFree = -1;
            for (int k = 0; k < slotCount; k++) {
                long base = ConsumerFile.HEADER_LENGTH + (long) k * ConsumerFile.SLOT_SIZE;
                long word = mapped.get(NATIVE_LONG, base + ConsumerFormat.STATE_OFFSET);
                long state = word >>> ConsumerFormat.STATE_SHIFT;
                if (state == ConsumerFormat.FREE) {
                    if (firstFree < 0) {
                        firstFree = k;
                    }
                    if (mapped.asSlice(base, ConsumerFile.SLOT_SIZE).mismatch(MemorySegment.ofArray(
                            new byte[ConsumerFile.SLOT_SIZE])) != -1) {
                        problems.add(new Problem(file, base, -1, "slot " + k + " is FREE but not all zero"));
                    }
                    continue;
                }
                if (firstFree >= 0) {
                    problems.add(new Problem(file, base + ConsumerFormat.STATE_OFFSET, -1, "slot " + k + " is in use "
                            + "after the FREE slot " + firstFree + ", which ends every scan: its consumer is lost"));
                }
                if (state == ConsumerFormat.CLAIMING) {
                    long claimer = word & ~(3L << ConsumerFormat.STATE_SHIFT);
                    if (claimer < 1 || claimer > WriterRegistry.MAX_ID) {
                        problems.add(new Problem(file, base + ConsumerFormat.STATE_OFFSET, -1, "slot " + k
                                + " is CLAIMING by writer " + claimer + ", not 1 to " + WriterRegistry.MAX_ID));
                    }
                    continue;
                }
                String name = name(k, base, word);
                if (name == null) {
                    continue;
                }
                if (state == ConsumerFormat.READY) {
                    Integer other = ready.putIfAbsent(name, k);
                    if (other != null) {
                        problems.add(new Problem(file, base + ConsumerFormat.NAME_OFFSET, -1, "consumer " + name
                                + " is in slots " + other + " and " + k));
                    }
                }
                positions(k, base, name);
            }
        }

        /** The name of a READY or REMOVED slot, checked against its state word; null (and a problem) if damaged. */
        private String name(int k, long base, long word) {
            int length = (int) (word >>> 32 & 0x3FFF_FFFF);
            if (length < 1 || length > ConsumerFormat.MAX_NAME_LENGTH) {
                problems.add(new Problem(file, base + ConsumerFormat.STATE_OFFSET, -1, "slot " + k + "'s state word "
                        + "gives a name of " + length + " bytes, not 1 to " + ConsumerFormat.MAX_NAME_LENGTH));
                return null;
            }
            byte[] bytes = mapped.asSlice(base + ConsumerFormat.NAME_OFFSET, ConsumerFormat.MAX_NAME_LENGTH)
                    .toArray(ValueLayout.JAVA_BYTE);
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, length);
            if ((int) crc.getValue() != (int) word) {
                problems.add(new Problem(file, base + ConsumerFormat.NAME_OFFSET, -1, String.format("slot %d's name "
                        + "does not match its state word: CRC32C %08x, stored %08x", k, (int) crc.getValue(), (int) word)));
                return null;
            }
            for (int i = 0; i < ConsumerFormat.MAX_NAME_LENGTH; i++) {
                int c = bytes[i];
                boolean valid = i < length ? Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '_' || c == '-'
                        : c == 0;
                if (!valid) {
                    problems.add(new Problem(file, base + ConsumerFormat.NAME_OFFSET + i, -1, "slot " + k + "'s name"
                            + " byte " + i + " is " + (c & 0xFF) + (i < length ? ", not of [A-Za-z0-9._-]"
                            : ", not 0 after the name")));
                    return null;
                }
            }
            return new String(bytes, 0, length, StandardCharsets.US_ASCII);
        }

        private void positions(int k, long base, String name) {
            long committed = mapped.get(NATIVE_LONG, base + ConsumerFormat.COMMITTED_OFFSET);
            if (committed < -1 || end >= 0 && committed >= end) {
                problems.add(new Problem(file, base + ConsumerFormat.COMMITTED_OFFSET, -1, "consumer " + name
                        + " committed index " + committed + ", not -1 to " + (end < 0 ? "the end" : end - 1
                        + " (the queue's end is " + end + ")")));
            }
            long holder = mapped.get(NATIVE_LONG, base + ConsumerFormat.HOLDER_OFFSET);
            int version = mapped.get(LE_INT, ConsumerFile.VERSION_OFFSET);
            if (version >= 2 && (holder < 0 || holder > WriterRegistry.MAX_ID)) {
                problems.add(new Problem(file, base + ConsumerFormat.HOLDER_OFFSET, -1, "consumer " + name + " holder "
                        + Long.toUnsignedString(holder) + " is not 0 or a writer id (1 to " + WriterRegistry.MAX_ID + ")"));
            }
            long lastCommit = mapped.get(NATIVE_LONG, base + ConsumerFormat.TIME_OFFSET);
            if (lastCommit < 0 || lastCommit > latestCommit) {
                problems.add(new Problem(file, base + ConsumerFormat.TIME_OFFSET, -1, "consumer " + name
                        + " last commit " + lastCommit + " ms is before 1970 or more than a day ahead of this clock"));
            }
        }
    }

    private static void replicaIdentity(Path dir, List<Problem> problems) {
        Path file = dir.resolve(ReplicaIdentity.NAME);
        byte[] bytes = read(file, 17, problems);
        if (bytes == null) {
            return;
        }
        if (bytes.length != 16) {
            problems.add(new Problem(file, Math.min(bytes.length, 16), -1, "a replica identity is 16 bytes, not "
                    + (bytes.length > 16 ? "more" : bytes.length)));
        } else if (MemorySegment.mismatch(MemorySegment.ofArray(bytes), 0, 8, MemorySegment.ofArray(REPLICA_ID_MAGIC),
                0, 8) != -1) {
            problems.add(new Problem(file, 0, -1, "not a Blit replica identity (magic is not \"BLITRID\\0\")"));
        } else if (ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(8) == 0) {
            problems.add(new Problem(file, 8, -1, "replica id 0, which is never created"));
        }
    }

    private static void replicaMarker(Path dir, List<Problem> problems) {
        Path file = dir.resolve(ReplicaMarker.NAME);
        byte[] bytes = read(file, 64 * 1024, problems);
        if (bytes == null) {
            return;
        }
        try {
            String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            if (text.isBlank() || !text.endsWith(System.lineSeparator()) && !text.endsWith("\n")) {
                problems.add(new Problem(file, bytes.length, -1, "the replica marker does not name a source ended by a"
                        + " line separator"));
            }
        } catch (CharacterCodingException e) {
            problems.add(new Problem(file, 0, -1, "the replica marker is not UTF-8 text"));
        }
    }

    /**
     * The first bytes of {@code file} (at most {@code max}), or null if there is none or it cannot be read as a
     * regular file (a problem then).
     */
    private static byte[] read(Path file, long max, List<Problem> problems) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile()) {
                problems.add(new Problem(file, 0, -1, attributes.isSymbolicLink() ? "a symbolic link (never followed)"
                        : "not a regular file"));
                return null;
            }
            try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ,
                    LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(channel.size(), max));
                while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                    // read up to max, or the end
                }
                return java.util.Arrays.copyOf(buffer.array(), buffer.position());
            }
        } catch (NoSuchFileException absent) {
            return null;
        } catch (IOException e) {
            problems.add(new Problem(file, 0, -1, "cannot be read: " + e));
            return null;
        }
    }

    private static void zeros(Path file, MemorySegment in, long from, long to, String what, List<Problem> problems) {
        for (long at = from; at < to; at++) {
            if (in.get(ValueLayout.JAVA_BYTE, at) != 0) {
                problems.add(new Problem(file, at, -1, what + " are not all zero"));
                return;
            }
        }
    }

    /** The exception's problem without its "corrupt queue file F at byte O: " prefix, which the Problem repeats. */
    private static String reason(QueueCorruptedException e) {
        String prefix = "corrupt queue file " + e.file() + " at byte " + e.offset() + ": ";
        String message = e.getMessage();
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
