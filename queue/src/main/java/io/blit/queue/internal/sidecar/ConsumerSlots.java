package io.blit.queue.internal.sidecar;

import static io.blit.queue.internal.format.ConsumerFormat.*;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.file.ProcessIdentity;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * The slots of a mapped positions file ({@link ConsumerFile}) and the protocols on them: creating a named consumer's
 * slot, claiming and releasing it, committing, listing, removing. Bytes specified in {@code docs/format.md} ("The
 * positions file").
 *
 * <pre>
 * slot k at 64 + 64k:
 * +0   committed index  i64  the index of the last message the consumer committed; -1: none
 * +8   holder           u64  the writer id ({@link WriterRegistry}) of the process whose tailer holds the name; 0: none
 * +16  last commit      i64  epoch milliseconds of the last commit; 0: never
 * +24  state word       u64  see below; published last
 * +32  name             32 bytes, US-ASCII [A-Za-z0-9._-], zero-padded
 *
 * state word:
 *  63 62 61                                 32 31                                 0
 * +-----+-------------------------------------+-------------------------------------+
 * |state| CLAIMING: 0                          |  CLAIMING: the claimer's writer id   |
 * |     | READY, REMOVED: name length (30)    |  READY, REMOVED: CRC32C of the name  |
 * +-----+-------------------------------------+-------------------------------------+
 * state: 00 FREE (the whole slot is 0)  01 CLAIMING  10 READY  11 REMOVED
 * </pre>
 *
 * <p><b>Creating a slot</b> (any threads and processes at once): a name that is READY is found by a scan without a
 * lock. Otherwise the creator takes the directory's <em>creation lock</em> ({@link WriterRegistry#lockConsumerCreation}:
 * this JVM's lock, then a POSIX lock of a byte of {@code writers.blitw}, waited for at most 10 s) and, holding it,
 * scans every used slot: if the name is READY it is the answer; else it claims, in this order, the name's own REMOVED
 * slot, a slot whose claimer died, the first FREE slot, or the first REMOVED slot of another name that no live
 * process holds (<em>reuse</em>), by a compare-and-set of its state word to CLAIMING with its writer id, writes the
 * name, the initial committed index and a zero time with plain stores, then publishes the slot with a release store
 * of the READY word. Every creator of this build holds the lock from its scan to its publication, so a name is in at
 * most one READY slot though slots are reused. Slots are still used as a prefix (a FREE slot ends every scan).
 *
 * <p><b>Builds without the lock</b> scan and claim without it and never reuse another name's slot. Before the first
 * reuse, the creator sets the file's incompatible feature {@link ConsumerFile#SLOT_REUSE}, so such a build refuses the
 * file from then on; until then it may create slots beside this one (a CLAIMING slot of a live creator is waited for,
 * and a claim lost to it starts the scan again). A file that never needed reuse stays readable by them.
 *
 * <p><b>Reading without the lock</b>: a reader loads a READY word (acquire), reads the name and words, then loads the
 * word again: if it changed the slot was removed (and perhaps reused) meanwhile, and what was read is dropped; the
 * name's length and CRC32C in the word are checked only against an unchanged word.
 *
 * <p><b>Holding a name</b>: the holder word is changed only by compare-and-set: from 0 or from a dead process's
 * identity to the opener's, and back to 0 on close. <b>Committing</b> is an opaque store of the time, then a release
 * store of the committed index (one aligned 8-byte store: never torn); a reader's acquire load of the index sees at
 * least that commit's time. The words are accessed through the mapping, so a commit is not a system call.
 *
 * <p><b>Format 1</b> (files of builds before writer ids) stored a {@link ProcessIdentity} (pid and start stamp) where
 * format 2 stores a writer id. Such a file is listed as it is (its holders judged by {@link ProcessIdentity}); before
 * a process holds a name in it, {@link #upgrade} makes it format 2.
 *
 * <p>Thread-safe (every shared word is accessed atomically); the mapping's arena decides which threads may use it.
 */
public final class ConsumerSlots {
    /** How long a creator waits for a slot another live process is creating before it gives up. */
    private static final long CLAIMING_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final Path file;
    private final MemorySegment segment;
    private final int slots;
    /** The directory's writer liveness: holders and claimers are writer ids (format 2). */
    private final WriterRegistry writers;
    /** The file's format version as mapped: 1 until {@link #upgrade}, then 2. */
    private int version;

    ConsumerSlots(Path file, MemorySegment segment, int slots, int version, WriterRegistry writers) {
        this.file = file;
        this.segment = segment;
        this.slots = slots;
        this.version = version;
        this.writers = writers;
    }

    /** Whether the process {@code identity} (a holder or claimer word, state bits cleared) names is alive. */
    public boolean isAlive(long identity) {
        return version >= 2 ? writers.isAlive(identity) : ProcessIdentity.isAlive(identity);
    }

    /** The pid of the process {@code identity} names, for messages (0: unknown). */
    public long pidOf(long identity) {
        return version >= 2 ? writers.pidOf(identity) : ProcessIdentity.pid(identity);
    }

    /**
     * Makes a format-1 file format 2 so that this process may hold names in it: every holder and claimer word of a
     * dead process of an earlier build is cleared (its committed index and name stay), then the version and the
     * header's CRC are rewritten. Idempotent, and safe while other processes of this build do the same.
     *
     * @throws IllegalStateException if a live process of an earlier build holds a name or is creating a slot (stop
     *                               it first: it could not read a format-2 file)
     */
    public synchronized void upgrade() {
        if (version >= 2) {
            return;
        }
        for (int k = 0; k < slots; k++) {
            long holder = holder(k);
            long w = state(k);
            long claimer = w >>> STATE_SHIFT == CLAIMING ? w & ~(3L << STATE_SHIFT) : 0;
            for (long identity : new long[] {holder, claimer}) {
                if (identity != 0 && ProcessIdentity.isAlive(identity)) {
                    throw QueueErrors.consumerFileInUseByEarlierBuild(file, ProcessIdentity.pid(identity));
                }
            }
            if (holder != 0) {
                WORD.compareAndSet(segment, offset(k, HOLDER_OFFSET), holder, 0L);
            }
            if (claimer != 0) { // a dead creator's slot: claimer 0, never alive, so the next creator takes it over
                WORD.compareAndSet(segment, offset(k, STATE_OFFSET), w, CLAIMING << STATE_SHIFT);
            }
        }
        ConsumerFile.rewriteVersion(segment, 2);
        version = 2;
    }

    /** A named consumer's slot as read now: its name, committed index, holder identity and last commit time. */
    public record Entry(int slot, String name, long committed, long holder, long lastCommitMillis) {
    }

    /** The positions file's path. */
    public Path file() {
        return file;
    }

    /** The mapping of the whole file. */
    MemorySegment segment() {
        return segment;
    }

    /**
     * The bytes of a consumer name: 1 to {@value #MAX_NAME_LENGTH} characters of {@code [A-Za-z0-9._-]}.
     *
     * @throws IllegalArgumentException naming the first offending character or the length
     * @throws NullPointerException     if {@code name} is null
     */
    public static byte[] encodeName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw QueueErrors.badConsumerName(name, "it has " + name.length() + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')) {
                throw QueueErrors.badConsumerName(name, String.format("character %d is '%c' (U+%04X)", i, c, (int) c));
            }
        }
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    /** The slot of the READY consumer {@code name}, or -1. */
    public int find(byte[] name) {
        long named = named(READY, name);
        for (int k = 0; k < slots; k++) {
            long w = state(k);
            if (w == FREE) {
                return -1; // slots are used as a prefix
            }
            if (w == named && nameEquals(k, name)) {
                return k;
            }
        }
        return -1;
    }

    /** The slot of consumer {@code name}, READY or REMOVED (a removed name keeps its slot), or -1. */
    public int findAny(byte[] name) {
        long ready = named(READY, name);
        long removed = named(REMOVED, name);
        for (int k = 0; k < slots; k++) {
            long w = state(k);
            if (w == FREE) {
                return -1;
            }
            if ((w == ready || w == removed) && nameEquals(k, name)) {
                return k;
            }
        }
        return -1;
    }

    /** {@return how many slots are in use (not FREE): the used prefix, READY, REMOVED and CLAIMING alike} */
    public int usedSlots() {
        int k = 0;
        while (k < slots && state(k) != FREE) {
            k++;
        }
        return k;
    }

    /**
     * The slot of consumer {@code name}, created READY with committed index {@code initialCommitted} if there is none
     * (reviving its REMOVED slot, or reusing another name's: see the class comment). As
     * {@link #findOrCreate(byte[], long, long, int)} with no reserve, failing if no slot can be had.
     *
     * @throws IllegalStateException if every slot is used by other names, or a live process has been creating a slot
     *                               (or holding the creation lock) for longer than 10 s
     */
    public int findOrCreate(byte[] name, long initialCommitted, long me) {
        int k = findOrCreate(name, initialCommitted, me, 0);
        if (k < 0) {
            throw QueueErrors.consumersFull(file, slots);
        }
        return k;
    }

    /**
     * The slot of consumer {@code name}: its READY slot if it has one (found without the lock), else one made READY
     * with committed index {@code initialCommitted} under the creation lock, only while more than {@code reserve}
     * slots are {@linkplain #reusableSlots() reusable} before it is taken. Takes, in order of preference: the name's
     * own REMOVED slot, a slot whose claimer died, the first FREE slot, then the first REMOVED slot of another name
     * that no live process holds (setting the file's {@link ConsumerFile#SLOT_REUSE} feature first).
     *
     * @param name             the name's bytes ({@link #encodeName})
     * @param initialCommitted the committed index of a slot made READY
     * @param me               this process's writer id
     * @param reserve          how many reusable slots must remain after a slot is made READY (0: none)
     * @return the slot, or -1 if none is made READY because of {@code reserve} or because no slot can be had
     * @throws IllegalStateException if the file is of format 1, or a live process has been creating a slot (or holding
     *                               the creation lock) for longer than 10 s
     */
    public int findOrCreate(byte[] name, long initialCommitted, long me, int reserve) {
        requireFormat2();
        int k = find(name);
        if (k >= 0) {
            return k; // the common case: an existing name, no lock
        }
        if (writers == null) {
            throw new IllegalStateException("the positions file " + file + " is mapped without writer liveness");
        }
        try (WriterRegistry.CreationLock lock = writers.lockConsumerCreation()) {
            while (true) {
                k = createLocked(name, initialCommitted, me, reserve);
                if (k != RESCAN) {
                    return k;
                }
            }
        }
    }

    private static final int RESCAN = -2;
    /**
     * How many times a READY name that does not match its unchanged word is read again before it is reported corrupt:
     * a slot removed and reused twice, back to the same name, while it was read would look so once.
     */
    private static final int NAME_REREADS = 3;

    /**
     * One scan of the used prefix and one claim, under the creation lock: only a creator of a build without the lock
     * (a file without {@link ConsumerFile#SLOT_REUSE}) or a dead one can change a state word meanwhile, and any such
     * change makes the scan start over ({@link #RESCAN}).
     */
    private int createLocked(byte[] name, long initialCommitted, long me, int reserve) {
        long ready = named(READY, name);
        long removed = named(REMOVED, name);
        int own = -1;
        int orphan = -1;
        int firstFree = slots;
        int otherRemoved = -1;
        long ownWord = 0;
        long orphanWord = 0;
        long otherWord = 0;
        int reusable = 0;
        for (int k = 0; k < slots; k++) {
            long w = state(k);
            if (w == FREE) {
                firstFree = k;
                reusable += slots - k;
                break;
            }
            if (w >>> STATE_SHIFT == CLAIMING) {
                if (!isAlive(w & ~(3L << STATE_SHIFT))) {
                    if (orphan < 0) {
                        orphan = k;
                        orphanWord = w;
                    }
                    reusable++;
                    continue;
                }
                long since = 0;
                while (state(k) == w) { // a creator without the lock: its slot may become this name's
                    since = waitForClaimer(k, w, since);
                }
                return RESCAN;
            }
            if (w == ready && nameEquals(k, name)) {
                return k;
            }
            if (w >>> STATE_SHIFT == REMOVED) {
                long holder = holder(k);
                if (w == removed && nameEquals(k, name)) {
                    if (own < 0) {
                        own = k;
                        ownWord = w;
                    }
                    reusable++;
                } else if (holder == 0 || !isAlive(holder)) {
                    if (otherRemoved < 0) {
                        otherRemoved = k;
                        otherWord = w;
                    }
                    reusable++;
                }
            }
        }
        int k = own >= 0 ? own : orphan >= 0 ? orphan : firstFree < slots ? firstFree : otherRemoved;
        if (k < 0 || reusable <= reserve) {
            return -1;
        }
        long w = k == own ? ownWord : k == orphan ? orphanWord : k == firstFree ? FREE : otherWord; // as judged
        boolean reuse = k == otherRemoved && k != own;
        if (reuse && !ConsumerFile.hasIncompatible(segment, ConsumerFile.SLOT_REUSE)) {
            ConsumerFile.setIncompatible(segment, ConsumerFile.SLOT_REUSE); // before any build without it sees reuse
        }
        if (!WORD.compareAndSet(segment, offset(k, STATE_OFFSET), w, (CLAIMING << STATE_SHIFT) | me)) {
            return RESCAN;
        }
        long holder = holder(k);
        if (holder != 0 && !isAlive(holder)) {
            WORD.compareAndSet(segment, offset(k, HOLDER_OFFSET), holder, 0L); // a dead holder of the old name
        }
        publish(k, name, initialCommitted, ready, w);
        return k;
    }

    /**
     * {@return how many slots a new name could be given now: FREE slots, REMOVED slots no live process holds and
     * slots of dead claimers} Read without the lock: a snapshot, for messages.
     */
    public int reusableSlots() {
        int reusable = 0;
        for (int k = 0; k < slots; k++) {
            long w = state(k);
            if (w == FREE) {
                return reusable + slots - k;
            }
            long kind = w >>> STATE_SHIFT;
            long who = kind == CLAIMING ? w & ~(3L << STATE_SHIFT) : kind == REMOVED ? holder(k) : -1;
            if (who == 0 || who > 0 && !isAlive(who)) {
                reusable++;
            }
        }
        return reusable;
    }

    /** Writes a claimed slot's content, then publishes it READY; gives the slot back on failure. */
    private void publish(int k, byte[] name, long initialCommitted, long ready, long before) {
        try {
            MemorySegment.copy(new byte[MAX_NAME_LENGTH], 0, segment, ValueLayout.JAVA_BYTE, offset(k, NAME_OFFSET),
                    MAX_NAME_LENGTH);
            MemorySegment.copy(name, 0, segment, ValueLayout.JAVA_BYTE, offset(k, NAME_OFFSET), name.length);
            WORD.setOpaque(segment, offset(k, TIME_OFFSET), 0L);
            WORD.setOpaque(segment, offset(k, COMMITTED_OFFSET), initialCommitted);
            WORD.setRelease(segment, offset(k, STATE_OFFSET), ready);
        } catch (RuntimeException | Error e) {
            // a FREE slot goes back to FREE (nobody passes a CLAIMING slot of a live claimer, so none is beyond it);
            // any other stays used, CLAIMING by writer 0, never alive: the next creator takes it over
            WORD.setRelease(segment, offset(k, STATE_OFFSET), before == FREE ? FREE : CLAIMING << STATE_SHIFT);
            throw e;
        }
    }

    /** Waits a little for the CLAIMING slot {@code k}; returns when the wait started. */
    private long waitForClaimer(int k, long claimingWord, long since) {
        long now = System.nanoTime();
        if (since == 0) {
            return now;
        }
        if (now - since > CLAIMING_TIMEOUT_NANOS) {
            long claimer = claimingWord & ~(3L << STATE_SHIFT);
            throw QueueErrors.consumerSlotStuck(file, offset(k, STATE_OFFSET), writers.describe(claimer));
        }
        if (now - since < 100_000) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(50_000);
        }
        return since;
    }

    /** Whether slot {@code k} is READY and holds {@code name}. */
    public boolean isReady(int k, byte[] name) {
        return state(k) == named(READY, name) && nameEquals(k, name);
    }

    /** Acquire load of slot {@code k}'s holder word (0: none). */
    public long holder(int k) {
        return (long) WORD.getAcquire(segment, offset(k, HOLDER_OFFSET));
    }

    /**
     * Claims slot {@code k} of consumer {@code name} for this process: a compare-and-set of its holder word from 0, or
     * from the identity of a process that is no longer alive, to this process's identity.
     *
     * @return true if claimed; false if the slot no longer holds {@code name} READY and a live process holds it
     *         (removed, and perhaps given to another name, since it was found: find the name again)
     * @throws io.blit.queue.ConsumerHeldException if a live process holds it, this one included, and it still holds
     *                                             {@code name}
     */
    public boolean claim(int k, String name, long me) {
        requireFormat2();
        while (true) {
            long holder = holder(k);
            if (holder == me || holder != 0 && isAlive(holder)) {
                if (!isReady(k, encodeName(name))) {
                    return false;
                }
                throw QueueErrors.consumerHeld(file.getParent(), name, pidOf(holder), holder == me);
            }
            if (WORD.compareAndSet(segment, offset(k, HOLDER_OFFSET), holder, me)) {
                return true;
            }
        }
    }

    /** Releases slot {@code k} if writer {@code me} holds it: a compare-and-set of its holder word back to 0. */
    public void release(int k, long me) {
        WORD.compareAndSet(segment, offset(k, HOLDER_OFFSET), me, 0L);
    }

    private void requireFormat2() {
        if (version < 2) {
            throw new IllegalStateException("the positions file " + file + " is of format 1: upgrade() it first");
        }
    }

    /** Acquire load of slot {@code k}'s committed index. */
    public long committed(int k) {
        return (long) WORD.getAcquire(segment, offset(k, COMMITTED_OFFSET));
    }

    /** Opaque load of slot {@code k}'s last commit time (epoch ms; 0: never). */
    public long lastCommitMillis(int k) {
        return (long) WORD.getOpaque(segment, offset(k, TIME_OFFSET));
    }

    /** The commit: an opaque store of {@code epochMillis}, then a release store of {@code index}. */
    public void commit(int k, long index, long epochMillis) {
        WORD.setOpaque(segment, offset(k, TIME_OFFSET), epochMillis);
        WORD.setRelease(segment, offset(k, COMMITTED_OFFSET), index);
    }

    /** Forces slot {@code k}'s page of the mapping to storage ({@link MemorySegment#force}: an msync). */
    public void force(int k) {
        segment.asSlice(offset(k, 0), ConsumerFile.SLOT_SIZE).force();
    }

    /**
     * Marks the READY slot {@code k} of {@code name}, which the caller holds, REMOVED.
     *
     * @return false if it was no longer READY with that name
     */
    public boolean markRemoved(int k, byte[] name) {
        return WORD.compareAndSet(segment, offset(k, STATE_OFFSET), named(READY, name), named(REMOVED, name));
    }

    /**
     * Every READY slot, in slot order, as read now (each word with acquire).
     *
     * @throws io.blit.queue.QueueCorruptedException if a slot's name is invalid or does not match its CRC
     */
    public List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        for (int k = 0; k < slots; k++) {
            long w = state(k);
            if (w == FREE) {
                break;
            }
            if (w >>> STATE_SHIFT == READY) {
                Entry entry = readyEntry(k, w);
                if (entry != null) {
                    entries.add(entry);
                }
            }
        }
        return entries;
    }

    /**
     * The READY slot {@code k} read with its state word {@code w}, or null if the slot changed meanwhile (removed, and
     * perhaps reused: then its name may have been read half old, half new, and is not a consumer read now). The name
     * is checked against its length and CRC only when the word is unchanged after it was read.
     */
    private Entry readyEntry(int k, long w) {
        int mismatches = 0;
        while (true) {
            String name;
            try {
                name = checkedName(k, w);
            } catch (RuntimeException e) {
                VarHandle.acquireFence(); // the name's loads come before the word's check below
                long again = state(k);
                if (again == w && ++mismatches > NAME_REREADS) {
                    throw e; // not a rewrite in flight (which would have changed the word, or ended by now)
                }
                if (again >>> STATE_SHIFT != READY) {
                    return null;
                }
                w = again;
                continue;
            }
            Entry entry = new Entry(k, name, committed(k), holder(k), lastCommitMillis(k));
            VarHandle.acquireFence(); // the loads of name and words above come before the word's check below
            long again = state(k);
            if (again == w) {
                return entry;
            }
            if (again >>> STATE_SHIFT != READY) {
                return null;
            }
            w = again;
        }
    }

    /** The name of READY or REMOVED slot {@code k} with state word {@code w}, checked against the word. */
    private String checkedName(int k, long w) {
        int length = (int) ((w >>> 32) & ((1L << 30) - 1));
        long at = offset(k, NAME_OFFSET);
        if (length < 1 || length > MAX_NAME_LENGTH) {
            throw QueueErrors.badConsumerSlot(file, offset(k, STATE_OFFSET), "name length " + length);
        }
        byte[] bytes = segment.asSlice(at, length).toArray(ValueLayout.JAVA_BYTE);
        String name = new String(bytes, StandardCharsets.US_ASCII);
        if ((int) w != crc(bytes)) {
            throw QueueErrors.badConsumerSlot(file, at, String.format("name \"%s\" does not match its CRC32C %08x",
                    name, (int) w));
        }
        try {
            encodeName(name);
        } catch (IllegalArgumentException e) {
            throw QueueErrors.badConsumerSlot(file, at, e);
        }
        return name;
    }

    private boolean nameEquals(int k, byte[] name) {
        long at = offset(k, NAME_OFFSET);
        for (int i = 0; i < name.length; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, at + i) != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** {@return the number of slots of the file} */
    public int slotCount() {
        return slots;
    }

    /**
     * Acquire load of slot {@code k}'s state word (FREE, CLAIMING, READY or REMOVED in its top two bits: see the class
     * comment); a scan of the used prefix stops at the first FREE (0) word.
     */
    public long stateWord(int k) {
        return state(k);
    }

    /**
     * Copies the {@value #MAX_NAME_LENGTH} name bytes of slot {@code k} (the name, zero-padded) to {@code into} at
     * {@code offset}: one bulk copy, nothing allocated. The name is as stored, unchecked (its length and CRC32C are
     * in the state word).
     */
    public void copyName(int k, MemorySegment into, long offset) {
        MemorySegment.copy(segment, offset(k, NAME_OFFSET), into, offset, MAX_NAME_LENGTH);
    }

    /** The READY or REMOVED state word of {@code name}. */
    private static long named(long state, byte[] name) {
        return state << STATE_SHIFT | (long) name.length << 32 | Integer.toUnsignedLong(crc(name));
    }

    private static int crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length);
        return (int) crc.getValue();
    }

    private long state(int k) {
        return (long) WORD.getAcquire(segment, offset(k, STATE_OFFSET));
    }

    private static long offset(int k, int field) {
        return ConsumerFile.HEADER_LENGTH + (long) k * ConsumerFile.SLOT_SIZE + field;
    }
}
