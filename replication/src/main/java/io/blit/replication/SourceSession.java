package io.blit.replication;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.blit.queue.BlitQueue;
import io.blit.queue.MessagesDeletedException;
import io.blit.queue.QueueOptions;
import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.RecordStream;
import io.blit.replication.wire.Accept;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.BatchProtection;
import io.blit.replication.wire.Heartbeat;
import io.blit.replication.wire.Refuse;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One authenticated replica's stream, in a thread of its own: ACCEPT (or REFUSE) as sequence 0, then a
 * {@link RecordStream} over the source's queue from the handshake's start index, packed into batches sealed under the
 * session's key (MAC, or encryption if the session is encrypted) and offered on the publication the handshake
 * challenged over — catch-up from the files, then live, the same loop. Back-pressure waits (idle strategy), never
 * drops; a replica unreachable for the source's replica timeout ends its session (it resubscribes from what it
 * holds). Appenders never wait for it: the session only reads the queue's files.
 *
 * <p>Fields read by other threads are volatile; {@link #lastAckSequence} and {@link #fromReplica} belong to the
 * source's control thread.
 */
final class SourceSession implements Runnable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    private static final long HEARTBEAT_NANOS = 100_000_000L;
    /**
     * How often a session reads its queue's fence, to end when the queue enters another term; and how long it then
     * goes on sending what its queue holds, at most, before it ends.
     */
    private static final long FENCE_CHECK_NANOS = 500_000_000L;

    final Subscribe.Request request;
    final String peer;
    /** The data endpoint streamed to, in its one spelling ({@link Endpoint#canonical}). */
    final String endpoint;
    final int controlSession;
    /** Opens the replica's ACKs (control thread). */
    final Sealer fromReplica;
    /** The sequence of the last ACK taken (control thread). */
    long lastAckSequence;
    private final Path dir;
    private final long start;
    /** The source's newest terms, for the accept. */
    private final List<TermHistory.Term> terms;
    private final String refusal;
    private final BatchProtection protection;
    private final ExclusivePublication publication;
    private final Sealer toReplica;
    private final SourceOptions options;
    private volatile boolean running = true;
    /**
     * What a batch may hold beyond {@link #batchLimit} (the entry that crosses it: at most a FILE entry of the largest
     * header) and its tag.
     */
    private static final int OVERSHOOT = Batch.fileEntryLength(Batch.MAX_FILE_HEADER) + Sealer.TAG;
    /** {@link #forced} of a session whose replica has not yet acknowledged anything forced: no index is. */
    static final long NOTHING_FORCED = 0;
    /** What the replica acknowledged: it holds every index below {@code committed} (and has forced below {@code forced}). */
    volatile long committed;
    volatile long forced;
    /** Every index below this has been sent: an acknowledgement beyond it is a protocol violation. */
    private volatile long sent;
    private boolean connected;
    private long sequence;
    /** Every index below this is in a batch filled so far (the session thread's). */
    private long filledUpTo;
    /**
     * The bytes of the stream's current record already sent in parts (a record too long for the room left in a
     * batch: {@link Batch#ENTRY_PART}), or -1 when no record is being sent in parts (the session thread's).
     */
    private long partSent = -1;
    /**
     * Where a batch stops taking entries: the batch size, or less if the publication's largest message (an eighth of
     * its term) could not carry a batch of that size plus the largest entry that may overshoot it (a file header).
     */
    private int batchLimit;
    private final byte[] batch;
    /** Two views of {@code batch}: Aeron's, and the one record bytes are copied into. */
    private final UnsafeBuffer buffer;
    private final MemorySegment batchSegment;

    SourceSession(Path dir, PendingHandshake handshake, long start, List<TermHistory.Term> terms, String refusal,
                  int controlSession, boolean encrypted, SourceOptions options) {
        this.dir = dir;
        this.request = handshake.request;
        this.peer = handshake.peer;
        this.endpoint = Endpoint.canonical(request.endpoint());
        this.publication = handshake.publication;
        this.fromReplica = handshake.fromReplica;
        this.toReplica = new Sealer(handshake.keys[0]);
        this.start = start;
        this.terms = terms;
        this.refusal = refusal;
        this.controlSession = controlSession;
        this.protection = encrypted ? BatchProtection.ENCRYPTED : BatchProtection.AUTHENTICATED;
        this.options = options;
        // the replica holds every index below the start (below its next index, or below where its records part from
        // this source's, the rest set aside when it takes the accept)
        this.committed = start;
        // what a replica claims to hold may be in its page cache only (it may have been killed since it wrote it):
        // forced counts from the replica's first acknowledgement of what it forced, never from the claim
        this.forced = NOTHING_FORCED;
        this.sent = committed;
        this.filledUpTo = start;
        this.batch = new byte[options.batchBytes() + OVERSHOOT]; // no entry crosses batchBytes by more
        this.buffer = new UnsafeBuffer(batch);
        this.batchSegment = MemorySegment.ofArray(batch);
    }

    void stop() {
        running = false;
    }

    boolean running() {
        return running;
    }

    /**
     * An authenticated acknowledgement (control thread). One that claims more than was sent ends the session: the
     * replica is not following the protocol.
     */
    void acknowledge(long committedNext, long forcedNext) {
        if (committedNext > sent || forcedNext > committedNext) {
            LOG.log(System.Logger.Level.WARNING, "replica " + peer + " acknowledged index " + (committedNext - 1)
                    + " (forced " + (forcedNext - 1) + "), beyond what was sent to it (" + (sent - 1)
                    + "); its session ends");
            stop();
            return;
        }
        committed = Math.max(committed, committedNext);
        forced = Math.max(forced, forcedNext);
    }

    @Override
    public void run() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); publication) {
            connected = true;
            batchLimit = Math.min(options.batchBytes(), publication.maxMessageLength() - OVERSHOOT);
            if (refusal != null) {
                offer(Refuse.encode(buffer, refusal, toReplica));
                return;
            }
            RecordStream stream;
            try {
                stream = RecordStream.open(queue.directory(), QueueOptions.defaults(), start);
            } catch (IllegalArgumentException | MessagesDeletedException e) {
                String reason = "the source queue " + dir + " cannot serve from index " + start + ": " + e.getMessage();
                LOG.log(System.Logger.Level.WARNING, "refused replica " + peer + ": " + reason);
                offer(Refuse.encode(buffer, reason, toReplica));
                return;
            }
            try (stream; PositionsSender positions = new PositionsSender(dir)) {
                offer(Accept.encode(buffer, start, protection, terms, toReplica));
                LOG.log(System.Logger.Level.INFO, "serving replica " + peer + " on " + endpoint + " from index " + start + ", batches "
                        + protection.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
                stream(stream, positions);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "session of replica " + peer + " failed", e);
        } finally {
            running = false;
        }
    }

    private void stream(RecordStream stream, PositionsSender positions) {
        IdleStrategy idle = IdleStrategies.create();
        long lastSent = System.nanoTime();
        long fence = QueueTerms.fenceTerm(dir);
        long fenceChecked = lastSent;
        long endBy = 0; // once the queue entered another term: when the session ends even if it has more to send
        while (running && connected) {
            int length = fill(stream);
            long now = System.nanoTime();
            if (endBy == 0 && now - fenceChecked > FENCE_CHECK_NANOS) {
                fenceChecked = now;
                if (QueueTerms.fenceTerm(dir) != fence) {
                    endBy = now + FENCE_CHECK_NANOS;
                }
            }
            // promoted (a chain's link) or fenced: the replica subscribes again and learns the new terms; first it
            // gets what the queue holds (a handover's new primary waits for the old one's last records), for 0.5 s
            if (endBy != 0 && (length <= Session.BODY_AT || now - endBy > 0)) {
                LOG.log(System.Logger.Level.INFO, "the source queue " + dir + " entered another term; the session"
                        + " of replica " + peer + " ends" + (length <= Session.BODY_AT ? ", all it holds sent"
                        : " with records unsent"));
                return;
            }
            if (length > Session.BODY_AT) {
                sent = Math.max(sent, filledUpTo); // before the offer: the replica may acknowledge it before offer returns
                offerSealed(length);
                lastSent = now;
                idle.reset();
            }
            // never between the parts of a record, whose last part the replica expects next
            if (partSent < 0 && positions.due(now) && sendPositions(positions, now)) {
                lastSent = now;
            }
            if (length <= Session.BODY_AT) {
                if (now - lastSent > HEARTBEAT_NANOS) {
                    offer(Heartbeat.encode(buffer, ++sequence, filledUpTo, toReplica));
                    lastSent = now;
                }
                idle.idle();
            }
        }
    }

    /**
     * Sends the consumers whose positions changed, after the batches that carry their records (a position is sent
     * once its record is). {@return whether anything was sent}
     */
    private boolean sendPositions(PositionsSender positions, long now) {
        if (!positions.startRound(now)) {
            return false;
        }
        boolean any = false;
        int length;
        while (running && connected && (length = positions.next(buffer, batchSegment, sequence + 1, filledUpTo)) > 0) {
            sequence++;
            offerSealed(length);
            any = true;
        }
        return any;
    }

    /** Seals the message of {@code length} bytes in the buffer as the session's batches are, and offers it. */
    private void offerSealed(int length) {
        offer(switch (protection) {
            case ENCRYPTED -> Session.sealEncrypted(buffer, length, toReplica);
            case AUTHENTICATED -> Session.seal(buffer, length, toReplica);
        });
    }

    /**
     * Packs the stream's next events into the batch buffer (leaving room for the tag); returns the batch's length. A
     * run fills the batch's room; a single record longer than the room left goes in parts, from the room left in
     * this batch on, a batch's worth at a time, before the stream is polled again.
     */
    private int fill(RecordStream stream) {
        Batch.start(buffer, sequence + 1);
        int at = Session.BODY_AT;
        int count = 0;
        while (at < batchLimit) {
            if (partSent >= 0) {
                int room = (batchLimit - at - Batch.PART_BYTES) & ~7;
                if (room < 8) {
                    break;
                }
                int part = (int) Math.min(stream.runLength() - partSent, room);
                Batch.putPartHead(buffer, at, stream.index(), stream.runPosition(), stream.runLength(), partSent, part);
                stream.copyRunPart(batchSegment, at + Batch.PART_BYTES, partSent, part);
                at += Batch.PART_BYTES + part;
                count++;
                partSent += part;
                if (partSent == stream.runLength()) {
                    partSent = -1;
                    filledUpTo = stream.index() + 1;
                }
                continue;
            }
            int event = stream.pollRun(Math.max(batchLimit - at - Batch.RUN_BYTES, 8));
            if (event == RecordStream.NONE) {
                break;
            }
            if (event == RecordStream.RUN && stream.runCount() == 1
                    && at + Batch.RUN_BYTES + stream.runLength() > batchLimit) {
                partSent = 0; // too long for the room left: in parts, from here on
                continue;
            }
            int need;
            if (event == RecordStream.FILE) {
                byte[] header = stream.fileHeader();
                need = Batch.fileEntryLength(header.length);
                Batch.putFile(buffer, at, header);
                filledUpTo = stream.index();
            } else if (event == RecordStream.RUN) {
                need = Math.toIntExact(Batch.RUN_BYTES + stream.runLength());
                Batch.putRunHead(buffer, at, stream.runCount(), stream.index(), stream.runPosition(), stream.runLength());
                stream.copyRun(batchSegment, at + Batch.RUN_BYTES);
                filledUpTo = stream.index() + stream.runCount();
            } else { // the padding word that ends a file
                need = Batch.RECORD_LENGTH;
                Batch.putRecord(buffer, at, stream.index(), stream.word());
                filledUpTo = stream.index(); // a padding word: the index the next file starts at
            }
            at += need;
            count++;
        }
        if (count > 0) {
            sequence++;
            Batch.count(buffer, count);
        }
        return count > 0 ? at : Session.BODY_AT;
    }

    /** Offers the sealed message of {@code length} bytes in the buffer, waiting out back-pressure, never dropping it. */
    private void offer(int length) {
        long deadline = System.nanoTime() + options.replicaTimeout().toNanos();
        IdleStrategy idle = IdleStrategies.create();
        while (running && connected) {
            long result = publication.offer(buffer, 0, length);
            if (result > 0) {
                return;
            }
            if (result == Publication.MAX_POSITION_EXCEEDED || result == Publication.CLOSED) {
                connected = false;
                return;
            }
            if (result == Publication.NOT_CONNECTED && System.nanoTime() > deadline) {
                LOG.log(System.Logger.Level.WARNING, "replica " + peer + " disconnected; its session ends");
                connected = false;
                return;
            }
            idle.idle(); // back-pressured or reconnecting: wait, never drop
        }
    }
}
