package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.blit.queue.BlitQueue;
import io.blit.queue.MessagesDeletedException;
import io.blit.queue.RecordStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One replica's stream, in a thread of its own: a {@link RecordStream} over the source's queue from the handshake's
 * start index, packed into batches offered on an exclusive publication to the replica's data channel — catch-up from
 * the files, then live, the same loop. Back-pressure waits (idle strategy), never drops; a replica unreachable for
 * the source's replica timeout ends its session (it resubscribes from what it holds). Appenders never wait for it:
 * the session only reads the queue's files.
 */
final class SourceSession implements Runnable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    private static final long HEARTBEAT_NANOS = 100_000_000L;

    final SubscribeRequest request;
    final String peer;
    final int controlSession;
    private final Path dir;
    private final long start;
    private final Aeron aeron;
    private final SourceOptions options;
    private final Hmac hmac;
    private volatile boolean running = true;
    /** What the replica acknowledged: it holds every index below {@code committed} (and has forced below {@code forced}). */
    volatile long committed;
    volatile long forced;
    volatile boolean connected;
    private byte[] batch;
    /** Two views of {@code batch}: Aeron's, and the one record payloads are copied into. */
    private UnsafeBuffer buffer;
    private MemorySegment batchSegment;

    SourceSession(Path dir, SubscribeRequest request, long start, String peer, int controlSession, Aeron aeron,
                  SourceOptions options) {
        this.dir = dir;
        this.request = request;
        this.start = start;
        this.peer = peer;
        this.controlSession = controlSession;
        this.aeron = aeron;
        this.options = options;
        this.hmac = new Hmac(options.secret());
        this.committed = request.nextIndex() < 0 ? start : request.nextIndex();
        this.forced = committed;
        this.batch = new byte[options.batchBytes() + 4096];
        this.buffer = new UnsafeBuffer(batch);
        this.batchSegment = MemorySegment.ofArray(batch);
    }

    void stop() {
        running = false;
    }

    boolean running() {
        return running;
    }

    void acknowledge(long committedNext, long forcedNext) {
        committed = Math.max(committed, committedNext);
        forced = Math.max(forced, forcedNext);
    }

    @Override
    public void run() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             ExclusivePublication publication = aeron.addExclusivePublication(AeronConnection.udp(request.dataChannel())
                     + "|mtu=" + options.mtu(),
                     AeronConnection.DATA_STREAM)) {
            if (!awaitConnected(publication)) {
                LOG.log(System.Logger.Level.WARNING, "replica " + peer + " unreachable on " + request.dataChannel());
                return;
            }
            RecordStream stream;
            try {
                stream = queue.recordStream(start);
            } catch (IllegalArgumentException | MessagesDeletedException e) {
                String reason = "the source queue " + dir + " cannot serve from index " + start + ": " + e.getMessage();
                LOG.log(System.Logger.Level.WARNING, "refused replica " + peer + ": " + reason);
                offer(publication, Handshake.refuse(buffer, request, reason, hmac));
                return;
            }
            try (stream) {
                connected = offer(publication, Handshake.accept(buffer, request, start, publication.sessionId(), hmac));
                LOG.log(System.Logger.Level.INFO, "serving replica " + peer + " from index " + start);
                stream(stream, publication);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "session of replica " + peer + " failed", e);
        } finally {
            connected = false;
            running = false;
        }
    }

    private void stream(RecordStream stream, ExclusivePublication publication) {
        IdleStrategy idle = IdleStrategies.create();
        long lastSent = System.nanoTime();
        while (running && connected) {
            int length = fill(stream);
            long now = System.nanoTime();
            if (length > Wire.BATCH_ENTRIES) {
                connected = offer(publication, length);
                lastSent = now;
                idle.reset();
            } else {
                if (now - lastSent > HEARTBEAT_NANOS) {
                    buffer.putInt(0, Wire.HEARTBEAT, Wire.ORDER);
                    buffer.putLong(Wire.HB_NEXT, stream.index(), Wire.ORDER);
                    connected = offer(publication, Wire.HEARTBEAT_LENGTH);
                    lastSent = now;
                }
                idle.idle();
            }
        }
    }

    /** Packs the stream's next events into the batch buffer; returns the batch's length. */
    private int fill(RecordStream stream) {
        buffer.putInt(0, Wire.BATCH, Wire.ORDER);
        int at = Wire.BATCH_ENTRIES;
        int count = 0;
        while (at < options.batchBytes()) {
            // a run fills the batch's room, or is one record however long (ensure() grows the buffer for it)
            int event = stream.pollRun(Math.max(options.batchBytes() - at - Wire.RUN_BYTES, 8));
            if (event == RecordStream.NONE) {
                break;
            }
            int need;
            if (event == RecordStream.FILE) {
                byte[] header = stream.fileHeader();
                need = Wire.FILE_BYTES + Wire.align8(header.length);
                ensure(at, need);
                buffer.putInt(at, Wire.ENTRY_FILE, Wire.ORDER);
                buffer.putInt(at + 4, header.length, Wire.ORDER);
                buffer.putBytes(at + Wire.FILE_BYTES, header);
            } else if (event == RecordStream.RUN) {
                need = Math.toIntExact(Wire.RUN_BYTES + stream.runLength());
                ensure(at, need);
                buffer.putInt(at, Wire.ENTRY_RUN, Wire.ORDER);
                buffer.putInt(at + 4, stream.runCount(), Wire.ORDER);
                buffer.putLong(at + Wire.RUN_INDEX, stream.index(), Wire.ORDER);
                buffer.putLong(at + Wire.RUN_POSITION, stream.runPosition(), Wire.ORDER);
                buffer.putLong(at + Wire.RUN_LENGTH, stream.runLength(), Wire.ORDER);
                stream.copyRun(batchSegment, at + Wire.RUN_BYTES);
            } else { // the padding word that ends a file
                need = Wire.RECORD_PAYLOAD;
                ensure(at, need);
                buffer.putInt(at, Wire.ENTRY_RECORD, Wire.ORDER);
                buffer.putInt(at + 4, 0, Wire.ORDER);
                buffer.putLong(at + Wire.RECORD_INDEX, stream.index(), Wire.ORDER);
                buffer.putLong(at + Wire.RECORD_WORD, stream.word(), Wire.ORDER);
            }
            at += need;
            count++;
        }
        buffer.putInt(Wire.BATCH_COUNT, count, Wire.ORDER);
        return at;
    }

    /** Grows the batch buffer (for a record larger than a batch), keeping what it holds. */
    private void ensure(int at, int need) {
        if (at + need > batch.length) {
            batch = java.util.Arrays.copyOf(batch, at + need);
            buffer = new UnsafeBuffer(batch);
            batchSegment = MemorySegment.ofArray(batch);
        }
    }

    private boolean awaitConnected(ExclusivePublication publication) {
        long deadline = System.nanoTime() + options.replicaTimeout().toNanos();
        IdleStrategy idle = new BackoffIdleStrategy();
        while (!publication.isConnected()) {
            if (!running || System.nanoTime() > deadline) {
                return false;
            }
            idle.idle();
        }
        return true;
    }

    private boolean offer(ExclusivePublication publication, int length) {
        long deadline = System.nanoTime() + options.replicaTimeout().toNanos();
        IdleStrategy idle = IdleStrategies.create();
        while (running) {
            long result = publication.offer(buffer, 0, length);
            if (result > 0) {
                return true;
            }
            if (result == Publication.MAX_POSITION_EXCEEDED || result == Publication.CLOSED) {
                return false;
            }
            if (result == Publication.NOT_CONNECTED && System.nanoTime() > deadline) {
                LOG.log(System.Logger.Level.WARNING, "replica " + peer + " disconnected; its session ends");
                return false;
            }
            idle.idle(); // back-pressured or reconnecting: wait, never drop
        }
        return false;
    }
}
