package io.blit.queue.replica;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.record.SegmentTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a serving replication source reports about its replicas, in its queue directory's file {@value #FILE_NAME}:
 * rewritten whole (a new file renamed over the old) about once a second while the source serves, deleted when it
 * stops, so that {@code blit replicate status} on the primary's machine shows the whole group. Format (text, one
 * fact per line; docs/format.md, "The serving report"):
 *
 * <pre>
 * blit serving report 1
 * pid 4242
 * control 127.0.0.1:7000
 * written 1765145000000
 * end 1000
 * replica 00000000075bcd15 serving peer 127.0.0.1:50123 endpoint 127.0.0.1:7001 term 3 acknowledged 998 forced 0 sync false lag-records 2 lag-ms 4
 * </pre>
 *
 * <p>The file is read as hostile input: at most {@value #MAX_BYTES} bytes and {@value #MAX_REPLICAS} replicas, every
 * line and value checked; anything else is refused as corrupt, naming the file and line. Stateless; thread-safe.
 *
 * @param pid           the serving process's pid (informative)
 * @param control       the source's control endpoint
 * @param writtenMillis when the report was written, epoch milliseconds
 * @param end           the queue's end index then (the index its next record gets)
 * @param replicas      each replica session the source knows, serving or ended (ended ones stay until replaced)
 */
public record ServingReport(long pid, String control, long writtenMillis, long end, List<Replica> replicas) {
    /** The report's file name in a queue directory. */
    public static final String FILE_NAME = "serving-report";
    /** The most bytes a report file may hold. */
    public static final int MAX_BYTES = 1 << 20;
    /** The most replica lines a report may hold. */
    public static final int MAX_REPLICAS = 1024;
    /** The longest endpoint or peer spelling: a host name of 253 characters, a colon and a port. */
    static final int MAX_ADDRESS = 300;
    private static final String MAGIC = "blit serving report 1";

    /**
     * One replica as its source sees it.
     *
     * @param replicaId    the replica's identity (its directory's, the same across restarts)
     * @param serving      whether its session runs now
     * @param peer         the address its requests come from
     * @param endpoint     the data endpoint the source streams to
     * @param term         the newest term of the replica's history when it subscribed
     * @param acknowledged it acknowledged holding every index below this: its end
     * @param forced       it acknowledged having forced every index below this (0: none, or not a sync replica)
     * @param sync         whether it forces before it acknowledges
     * @param lagRecords   records of the queue it has not acknowledged: the report's end minus {@code acknowledged}
     * @param lagMillis    how old the first record it lacks was when the report was written, in milliseconds (0 if it
     *                     lacks none; -1 if unknown: the record is not committed yet, or has no time)
     */
    public record Replica(long replicaId, boolean serving, String peer, String endpoint, long term,
                          long acknowledged, long forced, boolean sync, long lagRecords, long lagMillis) {
        /**
         * @throws IllegalArgumentException if a value is out of its range (an address empty, longer than
         *                                  {@value ServingReport#MAX_ADDRESS} characters or not printable ASCII
         *                                  without spaces; a term above 2^32 - 1; an index, lag or term negative)
         */
        public Replica {
            address("peer", peer);
            address("endpoint", endpoint);
            if (term < 0 || term > 0xFFFF_FFFFL || acknowledged < 0 || forced < 0 || lagRecords < 0 || lagMillis < -1) {
                throw new IllegalArgumentException("replica " + Long.toHexString(replicaId) + ": term " + term
                        + ", acknowledged " + acknowledged + ", forced " + forced + ", lag " + lagRecords + " records "
                        + lagMillis + " ms: out of range");
            }
        }
    }

    /**
     * @throws IllegalArgumentException if a value is out of range (see {@link Replica}; pid below 1, end negative,
     *                                  more than {@value #MAX_REPLICAS} replicas)
     */
    public ServingReport {
        address("control", control);
        replicas = List.copyOf(replicas);
        if (pid < 1 || end < 0 || writtenMillis < 0 || replicas.size() > MAX_REPLICAS) {
            throw new IllegalArgumentException("pid " + pid + ", end " + end + ", written " + writtenMillis + ", "
                    + replicas.size() + " replicas: out of range");
        }
    }

    /** {@return the report in its file's text} */
    public String text() {
        StringBuilder text = new StringBuilder(256 + 200 * replicas.size()).append(MAGIC).append('\n')
                .append("pid ").append(pid).append('\n')
                .append("control ").append(control).append('\n')
                .append("written ").append(writtenMillis).append('\n')
                .append("end ").append(end).append('\n');
        for (Replica r : replicas) {
            text.append("replica ").append(String.format("%016x", r.replicaId()))
                    .append(r.serving() ? " serving" : " ended")
                    .append(" peer ").append(r.peer()).append(" endpoint ").append(r.endpoint())
                    .append(" term ").append(r.term()).append(" acknowledged ").append(r.acknowledged())
                    .append(" forced ").append(r.forced()).append(" sync ").append(r.sync())
                    .append(" lag-records ").append(r.lagRecords()).append(" lag-ms ").append(r.lagMillis()).append('\n');
        }
        return text.toString();
    }

    /**
     * Replaces {@code dir}'s report with this one: written to a new file of a random name (never through a link,
     * with the queue's file modes), then renamed over {@value #FILE_NAME} atomically, so that a reader sees the old
     * report or the new one, whole.
     *
     * @throws UncheckedIOException if it cannot be written (the old report, if any, is left as it was)
     */
    public void writeTo(Path dir) {
        Path temporary = dir.resolve(FILE_NAME + ".tmp-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        byte[] bytes = text().getBytes(StandardCharsets.US_ASCII);
        try {
            try (FileChannel out = FileModes.open(temporary, SegmentTail.ownerOnly(dir), java.util.Set.of(
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
            }
            Files.move(temporary, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot write the serving report in " + dir, e);
        }
    }

    /**
     * Deletes {@code dir}'s report, if it has one (a link of that name too: never followed).
     *
     * @throws UncheckedIOException if it cannot be deleted
     */
    public static void delete(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve(FILE_NAME));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the serving report in " + dir, e);
        }
    }

    /**
     * Deletes what a killed writer of reports left in {@code dir}: files named {@value #FILE_NAME}{@code .tmp-*}
     * (a link of that name as itself). Called by a source when it starts, before its first report.
     *
     * @throws UncheckedIOException if the directory cannot be listed or a leftover deleted
     */
    public static void deleteLeftovers(Path dir) {
        try (var entries = Files.newDirectoryStream(dir, FILE_NAME + ".tmp-*")) {
            for (Path leftover : entries) {
                Files.deleteIfExists(leftover);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the serving report's leftovers in " + dir, e);
        }
    }

    /**
     * Reads {@code dir}'s report.
     *
     * @return the report, or empty if the directory has none (no source serves it, or none has reported yet)
     * @throws QueueCorruptedException if the file is a link, longer than {@value #MAX_BYTES} bytes, or not a report
     *                                 (naming the file, the line and what is wrong)
     * @throws UncheckedIOException    if it cannot be read
     */
    public static Optional<ServingReport> read(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        byte[] bytes;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (in.size() > MAX_BYTES) {
                throw corrupt(file, 0, "longer than " + MAX_BYTES + " bytes");
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) in.size());
            while (buffer.hasRemaining() && in.read(buffer) >= 0) {
                // read to the size taken above; a file that shrank meanwhile is parsed as far as it got
            }
            bytes = java.util.Arrays.copyOf(buffer.array(), buffer.position());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (Files.isSymbolicLink(file)) {
                throw corrupt(file, 0, "a symbolic link (never followed)");
            }
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return Optional.of(parse(file, new String(bytes, StandardCharsets.US_ASCII)));
    }

    static ServingReport parse(Path file, String text) {
        if (!text.endsWith("\n")) {
            throw corrupt(file, 0, "not ended by a newline (written in part?)");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        if (lines.length < 5 || !lines[0].equals(MAGIC)) {
            throw corrupt(file, 1, "not \"" + MAGIC + "\" followed by pid, control, written and end lines");
        }
        long pid = number(file, 2, value(file, lines, 1, "pid"), 1, Long.MAX_VALUE);
        String control = value(file, lines, 2, "control");
        long written = number(file, 4, value(file, lines, 3, "written"), 0, Long.MAX_VALUE);
        long end = number(file, 5, value(file, lines, 4, "end"), 0, Long.MAX_VALUE);
        if (lines.length - 5 > MAX_REPLICAS) {
            throw corrupt(file, 5 + MAX_REPLICAS + 1, "more than " + MAX_REPLICAS + " replica lines");
        }
        List<Replica> replicas = new ArrayList<>(lines.length - 5);
        for (int i = 5; i < lines.length; i++) {
            replicas.add(replica(file, i + 1, lines[i]));
        }
        try {
            return new ServingReport(pid, control, written, end, replicas);
        } catch (IllegalArgumentException e) {
            throw corrupt(file, 3, e.getMessage());
        }
    }

    private static final String[] REPLICA_KEYS = {"replica", null, "peer", "endpoint", "term", "acknowledged", "forced",
            "sync", "lag-records", "lag-ms"};

    private static Replica replica(Path file, int line, String text) {
        String[] words = text.split(" ", -1);
        if (words.length != 19) {
            throw corrupt(file, line, "a replica line has 19 words, this one " + words.length);
        }
        String[] values = new String[REPLICA_KEYS.length];
        values[0] = words[1];
        if (!words[0].equals("replica") || !(words[2].equals("serving") || words[2].equals("ended"))) {
            throw corrupt(file, line, "not \"replica ID serving|ended ...\"");
        }
        for (int k = 2, w = 3; k < REPLICA_KEYS.length; k++, w += 2) {
            if (!words[w].equals(REPLICA_KEYS[k])) {
                throw corrupt(file, line, "word " + (w + 1) + " is \"" + shown(words[w]) + "\", not " + REPLICA_KEYS[k]);
            }
            values[k] = words[w + 1];
        }
        if (!values[0].matches("[0-9a-f]{16}")) {
            throw corrupt(file, line, "replica id \"" + shown(values[0]) + "\" is not 16 hexadecimal digits");
        }
        if (!values[7].equals("true") && !values[7].equals("false")) {
            throw corrupt(file, line, "sync \"" + shown(values[7]) + "\" is not true or false");
        }
        try {
            return new Replica(Long.parseUnsignedLong(values[0], 16), words[2].equals("serving"), values[2], values[3],
                    number(file, line, values[4], 0, 0xFFFF_FFFFL), number(file, line, values[5], 0, Long.MAX_VALUE),
                    number(file, line, values[6], 0, Long.MAX_VALUE), values[7].equals("true"),
                    number(file, line, values[8], 0, Long.MAX_VALUE), number(file, line, values[9], -1, Long.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw corrupt(file, line, e.getMessage());
        }
    }

    private static String value(Path file, String[] lines, int at, String key) {
        String line = lines[at];
        if (!line.startsWith(key + " ") || line.length() == key.length() + 1) {
            throw corrupt(file, at + 1, "not \"" + key + " VALUE\"");
        }
        return line.substring(key.length() + 1);
    }

    private static long number(Path file, int line, String text, long min, long max) {
        if (!text.matches("-?[0-9]{1,19}")) {
            throw corrupt(file, line, "\"" + shown(text) + "\" is not a decimal number");
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw corrupt(file, line, "\"" + text + "\" is out of range");
        }
        if (value < min || value > max) {
            throw corrupt(file, line, value + " is not in [" + min + ", " + max + "]");
        }
        return value;
    }

    private static void address(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty() || value.length() > MAX_ADDRESS || !value.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException(what + " \"" + shown(value) + "\" is not 1 to " + MAX_ADDRESS
                    + " printable ASCII characters without spaces");
        }
    }

    /** At most 40 characters of hostile text, every one outside printable ASCII shown as {@code ?}. */
    private static String shown(String text) {
        String cut = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return cut.replaceAll("[^\\x21-\\x7e.]", "?");
    }

    private static QueueCorruptedException corrupt(Path file, int line, String what) {
        return new QueueCorruptedException(file, 0, (line > 0 ? "line " + line + ": " : "") + what
                + " (a serving source rewrites this file every second; delete it if none serves the directory)");
    }
}
