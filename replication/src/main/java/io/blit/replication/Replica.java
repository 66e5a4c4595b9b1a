package io.blit.replication;

import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.ReplicaWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Follows a {@link ReplicationSource} into a queue directory of its own (docs/replication.md): subscribes with a
 * signed request saying what it holds, takes data only from the session the signed reply names, writes every record
 * at the same index, position and bytes as the source ({@link ReplicaWriter}), and acknowledges what it holds (in
 * sync mode: after forcing it to disk). When the source falls silent it resubscribes from what it holds, so a source
 * restart or a network drop resumes without a gap or a duplicate; so does a restart of the replica, whose own
 * half-written last record is written again from the source.
 *
 * <p>Runs in one thread of its own. A refusal by the source stops it: {@link #refusal()} says why.
 * Thread-safe accessors.
 */
public final class Replica implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    private static final long RESUBSCRIBE_NANOS = 500_000_000L;

    private final Path dir;
    private final ReplicaOptions options;
    private final Hmac hmac;
    private final long replicaId = new SecureRandom().nextLong() & Long.MAX_VALUE;
    private final SecureRandom random = new SecureRandom();
    private final Thread thread;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[16 << 10]);
    private final BufferView view = new BufferView();
    private Subscription data;
    private ExclusivePublication control;
    private ReplicaWriter writer;
    private byte[] nonce;
    private int acceptedSession;
    private boolean streaming;
    private long lastHeard;
    private long lastSubscribe;
    private long lastRefusedLog;
    private long acked = -1;
    private volatile boolean running = true;
    private volatile long held = -1;
    private volatile RefusalException refusal;
    private volatile RuntimeException failure;

    private Replica(Path dir, ReplicaOptions options) {
        this.dir = dir;
        this.options = options;
        this.hmac = new Hmac(options.secret());
        this.thread = Thread.ofPlatform().name("blit-replica").daemon().unstarted(this::run);
    }

    /**
     * Starts following {@code options.source()} into {@code dir} (created and marked as a replica if needed).
     *
     * @throws IllegalArgumentException if the secret is shorter than 16 bytes
     */
    public static Replica start(Path dir, ReplicaOptions options) {
        Replica replica = new Replica(Objects.requireNonNull(dir, "dir"), Objects.requireNonNull(options, "options"));
        replica.thread.start();
        return replica;
    }

    /** The replica holds every index below this (-1 until it holds a file). */
    public long nextIndex() {
        return held;
    }

    /** Why the source refused this replica, or null; a refused replica has stopped. */
    public RefusalException refusal() {
        return refusal;
    }

    /**
     * Why the replica stopped other than by a refusal or {@link #close()} (e.g. its file system is full: a
     * {@link io.blit.queue.QueueCorruptedException} naming the file and offset; what it committed stays, and a restart
     * resumes there), or null.
     */
    public RuntimeException failure() {
        return failure;
    }

    /** Whether the replica's thread still runs. */
    public boolean running() {
        return thread.isAlive();
    }

    /**
     * Waits until the replica holds every index below {@code next}.
     *
     * @throws RefusalException if the source refused the replica
     * @throws TimeoutException saying what it holds
     */
    public void awaitIndex(long next, java.time.Duration timeout) throws TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (held < next) {
            if (refusal != null) {
                throw refusal;
            }
            if (failure != null) {
                throw failure;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("replica " + dir + " holds up to index " + (held - 1) + ", waited for "
                        + (next - 1));
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void run() {
        try (AeronConnection aeron = AeronConnection.open(options.aeronDir(), dir, "replica");
             ReplicaWriter replicaWriter = ReplicaWriter.open(dir, "aeron " + options.source())) {
            writer = replicaWriter;
            held = writer.nextIndex();
            data = aeron.aeron().addSubscription(AeronConnection.udp(options.endpoint()), AeronConnection.DATA_STREAM);
            control = aeron.aeron().addExclusivePublication(AeronConnection.udp(options.source()),
                    AeronConnection.CONTROL_STREAM);
            FragmentAssembler assembler = new FragmentAssembler(this::onData);
            IdleStrategy idle = IdleStrategies.create();
            while (running) {
                long now = System.nanoTime();
                if (streaming && now - lastHeard > options.sourceTimeout().toNanos()) {
                    LOG.log(System.Logger.Level.WARNING, "source " + options.source() + " silent; resubscribing from "
                            + writer.nextIndex());
                    streaming = false;
                    nonce = null;
                }
                if (!streaming && now - lastSubscribe > RESUBSCRIBE_NANOS) {
                    subscribe(now);
                }
                int work = data.poll(assembler, 64);
                acknowledge();
                idle.idle(work);
            }
        } catch (RuntimeException e) {
            stop(e);
        } catch (InternalError e) { // a fault the queue did not translate: still a stop with a reason, not a silent death
            stop(new IllegalStateException("replica " + dir + ": " + e.getMessage(), e));
        }
    }

    private void subscribe(long now) {
        lastSubscribe = now;
        if (!control.isConnected()) {
            return;
        }
        if (nonce == null) { // a new handshake; until it is answered, the same request is sent again
            nonce = new byte[Wire.NONCE_LENGTH];
            random.nextBytes(nonce);
        }
        byte[] descriptor = null;
        if (options.expectedLayout() != null) {
            descriptor = new byte[options.expectedLayout().encodedSize()];
            options.expectedLayout().encodeTo(MemorySegment.ofArray(descriptor), 0);
        }
        SubscribeRequest request = new SubscribeRequest(replicaId, nonce, writer.nextIndex(), options.sync(),
                options.endpoint(), writer.newestFileHeader(), descriptor, true);
        control.offer(out, 0, request.encode(out, hmac));
    }

    private void acknowledge() {
        long next = writer.nextIndex();
        if (next == acked || !control.isConnected()) {
            return;
        }
        if (options.sync()) {
            writer.force();
        }
        out.putInt(0, Wire.ACK, Wire.ORDER);
        out.putInt(4, 0, Wire.ORDER);
        out.putLong(Wire.ACK_REPLICA, replicaId, Wire.ORDER);
        out.putLong(Wire.ACK_COMMITTED, next, Wire.ORDER);
        out.putLong(Wire.ACK_FORCED, options.sync() ? next : -1, Wire.ORDER);
        if (control.offer(out, 0, Wire.ACK_LENGTH) > 0) {
            acked = next;
        }
    }

    /**
     * Aeron's {@code Image.poll} hands an exception thrown here to its error handler and goes on polling, so nothing
     * may escape: a failure of the replica's own files (or anything unforeseen) stops the replica with that reason.
     */
    private void onData(DirectBuffer buffer, int offset, int length, Header header) {
        try {
            dispatch(buffer, offset, length, header);
        } catch (RuntimeException e) {
            stop(e);
        } catch (InternalError e) { // a fault the queue did not translate
            stop(new IllegalStateException("replica " + dir + ": " + e.getMessage(), e));
        }
    }

    private void stop(RuntimeException reason) {
        failure = reason;
        running = false;
        LOG.log(System.Logger.Level.ERROR, "replica " + dir + " stopped", reason);
    }

    private void dispatch(DirectBuffer buffer, int offset, int length, Header header) {
        int type = buffer.getInt(offset, Wire.ORDER);
        if (type == Wire.ACCEPT || type == Wire.REFUSE) {
            onReply(type, buffer, offset, length, header);
        } else if (!streaming || header.sessionId() != acceptedSession) {
            refuseData(header);
        } else {
            lastHeard = System.nanoTime();
            if (type == Wire.BATCH) {
                applyBatch(buffer, offset, length);
            }
        }
    }

    private void onReply(int type, DirectBuffer buffer, int offset, int length, Header header) {
        if (nonce == null || !Handshake.answers(buffer, offset, length, replicaId, nonce)) {
            return; // the reply to an earlier request, or to another replica
        }
        if (type == Wire.REFUSE) {
            refusal = new RefusalException("source " + options.source() + " refused replica " + dir + ": "
                    + Handshake.refusal(buffer, offset, length, hmac));
            LOG.log(System.Logger.Level.ERROR, refusal.getMessage());
            running = false;
        } else if (Handshake.acceptSigned(buffer, offset, length, hmac)) {
            acceptedSession = buffer.getInt(offset + Wire.ACC_SESSION, Wire.ORDER);
            streaming = true;
            lastHeard = System.nanoTime();
            nonce = null;
            LOG.log(System.Logger.Level.INFO, "replica " + dir + " follows " + options.source() + " from index "
                    + buffer.getLong(offset + Wire.ACC_START, Wire.ORDER));
        } else {
            LOG.log(System.Logger.Level.WARNING, "ignored an accept not signed with the secret from " + peerOf(header));
        }
    }

    private void refuseData(Header header) {
        long now = System.nanoTime();
        if (now - lastRefusedLog > 1_000_000_000L) {
            lastRefusedLog = now;
            LOG.log(System.Logger.Level.WARNING, "replica " + dir + " dropped data from " + peerOf(header)
                    + " (session " + header.sessionId() + "): not the session it handshook with");
        }
    }

    private String peerOf(Header header) {
        Image image = data.imageBySessionId(header.sessionId());
        return image == null ? "an unknown peer" : image.sourceIdentity();
    }

    private void applyBatch(DirectBuffer buffer, int offset, int length) {
        int count = buffer.getInt(offset + Wire.BATCH_COUNT, Wire.ORDER);
        int at = offset + Wire.BATCH_ENTRIES;
        int end = offset + length;
        try {
            for (int i = 0; i < count; i++) {
                int kind = buffer.getInt(at, Wire.ORDER);
                int size = buffer.getInt(at + 4, Wire.ORDER);
                int entryEnd = Wire.entryEnd(buffer, at, end);
                if (kind == Wire.ENTRY_FILE) {
                    byte[] header = new byte[size];
                    buffer.getBytes(at + Wire.FILE_BYTES, header);
                    writer.startFile(header);
                } else if (kind == Wire.ENTRY_RUN) {
                    applyRun(buffer, at, size, entryEnd - at - Wire.RUN_BYTES);
                } else {
                    long index = buffer.getLong(at + Wire.RECORD_INDEX, Wire.ORDER);
                    long word = buffer.getLong(at + Wire.RECORD_WORD, Wire.ORDER);
                    applyRecord(index, word, buffer, at + Wire.RECORD_PAYLOAD, size);
                }
                at = entryEnd;
            }
        } catch (QueueCorruptedException storage) {
            throw storage; // the replica's own files failed: it stops (onData); a restart resumes
        } catch (IllegalStateException | IllegalArgumentException diverged) {
            LOG.log(System.Logger.Level.WARNING, "replica " + dir + ": " + diverged.getMessage() + "; resubscribing");
            streaming = false;
            nonce = null;
        } finally {
            held = writer.nextIndex(); // what the entries before a failing one wrote is held
        }
    }

    private void applyRecord(long index, long word, DirectBuffer buffer, int payloadAt, int size) {
        long next = writer.nextIndex();
        if (index < next && !ReplicaWriter.isPadding(word)) {
            return; // held already (the stream restarted before it)
        }
        if (index > next) {
            throw new IllegalStateException("a gap: record " + index + " arrived, the replica expects " + next);
        }
        MemorySegment payload = view.view(buffer, payloadAt, size);
        writer.write(word, payload, view.offset(), size);
    }

    private void applyRun(DirectBuffer buffer, int at, int count, int length) {
        long index = buffer.getLong(at + Wire.RUN_INDEX, Wire.ORDER);
        long position = buffer.getLong(at + Wire.RUN_POSITION, Wire.ORDER);
        long next = writer.nextIndex();
        if (index + count <= next) {
            return; // held already (the stream restarted before it)
        }
        if (index != next) {
            throw new IllegalStateException("a run of indices " + index + " to " + (index + count - 1)
                    + " arrived, the replica expects " + next);
        }
        MemorySegment bytes = view.view(buffer, at + Wire.RUN_BYTES, length);
        writer.writeRun(index, position, bytes, view.offset(), length, count);
    }

    /** Stops following and closes the replica's files and Aeron client. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
