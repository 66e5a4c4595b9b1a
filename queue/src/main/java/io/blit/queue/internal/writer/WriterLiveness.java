package io.blit.queue.internal.writer;

import io.blit.queue.internal.format.RecordHeader;

/**
 * The one liveness check of a record's claimer: whether the writer that claimed a record may still commit it. What the
 * claim word's claimer field means is its file's format version ({@link RecordHeader}):
 * <ul>
 *   <li><b>format 3</b>: a writer id of the directory's {@link WriterRegistry}, alive exactly while its process holds
 *       the id's lock — in any pid namespace, after pid reuse, whatever the reader's own pid;</li>
 *   <li><b>formats 1 and 2</b> (files of earlier builds): a pid, modulo 2^29 in format 1 (bits 32-60 of the word)
 *       and modulo 2^22 in format 2, alive while a process of that pid exists
 *       in the reader's pid namespace or is the reader itself. The limits of that rule (pid reuse, pid namespaces)
 *       are why format 3 exists; a claim left in such a file by a dead writer of another namespace is stepped over
 *       only once no process of its pid is seen.</li>
 * </ul>
 * Stateless; thread-safe.
 */
public final class WriterLiveness {
    /** The first format whose claims name writer ids. */
    public static final int WRITER_ID_FORMAT = 3;
    private static final long OWN_PID = ProcessHandle.current().pid();

    private WriterLiveness() {
    }

    /**
     * Whether the claimer of the CLAIMED {@code word}, stored in a file of format {@code version}, is alive. Makes a
     * system call or two (a lock probe, or a look at {@code /proc}) unless the claimer is this process.
     */
    public static boolean claimerAlive(WriterRegistry writers, int version, long word) {
        long claimer = RecordHeader.claimer(word, version);
        if (version >= WRITER_ID_FORMAT) {
            return writers.isAlive(claimer);
        }
        long ownPid = OWN_PID & (version == 1 ? RecordHeader.FORMAT1_PID_MASK : RecordHeader.WRITER_MASK);
        return claimer == ownPid || ProcessHandle.of(claimer).map(ProcessHandle::isAlive).orElse(false);
    }

    /** {@return the claimer of {@code word} in a file of format {@code version}, for messages: "writer 17 (pid 4242)"} */
    public static String describeClaimer(WriterRegistry writers, int version, long word) {
        long claimer = RecordHeader.claimer(word, version);
        return version >= WRITER_ID_FORMAT ? writers.describe(claimer) : "pid " + claimer;
    }
}
