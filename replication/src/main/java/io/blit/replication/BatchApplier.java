package io.blit.replication;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.replica.ReplicaDivergedException;
import io.blit.queue.replica.ReplicaInputException;
import io.blit.queue.replica.ReplicaWriter;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.Session;
import java.lang.foreign.MemorySegment;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes the entries of an opened, checked BATCH into a replica's files with its {@link ReplicaWriter}: a FILE entry
 * starts the source's file, a RUN is written with one copy, a PART goes straight into the file behind its record's
 * empty header word (stored with the last part), a RECORD (the padding word that ends a file) is stored;
 * entries the replica holds already (a stream restarted before them) are skipped. Anything out of order or that the
 * writer refuses is a divergence the caller answers by ending the session. Stateless; the replica's thread's.
 */
final class BatchApplier {
    private BatchApplier() {
    }

    /**
     * Applies the entries of a batch {@link Batch#check checked} in {@code in} ({@code inSegment} views the same
     * bytes); returns why the stream diverged from what the replica holds, or null. What the entries before a failing
     * one wrote stays written: each is whole and in order.
     *
     * @throws QueueCorruptedException if the replica's own files fail (the replica stops; a restart resumes)
     */
    static String apply(ReplicaWriter writer, UnsafeBuffer in, MemorySegment inSegment) {
        int count = Session.aux(in);
        int at = Session.BODY_AT;
        try {
            for (int i = 0; i < count; i++) {
                int kind = Batch.kind(in, at);
                if (kind == Batch.ENTRY_FILE) {
                    writer.startFile(Batch.fileHeader(in, at)); // an invalid header: ReplicaInputException
                } else if (kind == Batch.ENTRY_RUN) {
                    applyRun(writer, in, inSegment, at);
                } else if (kind == Batch.ENTRY_PART) {
                    applyPart(writer, in, inSegment, at);
                } else {
                    applyRecord(writer, Batch.index(in, at), Batch.recordWord(in, at));
                }
                at = Batch.next(in, at);
            }
            return null;
        } catch (QueueCorruptedException storage) {
            throw storage; // the replica's own files failed: it stops (onData); a restart resumes
        } catch (ReplicaDivergedException | ReplicaInputException diverged) {
            // only these: any other failure (a closed arena, a bug) is not the stream's and stops the replica instead
            return "a batch the replica cannot take (" + diverged.getMessage() + ")";
        }
    }

    private static void applyRecord(ReplicaWriter writer, long index, long word) {
        long next = writer.nextIndex();
        if (index < next && !ReplicaWriter.isPadding(word)) {
            return; // held already (the stream restarted before it)
        }
        if (index > next) {
            throw new ReplicaDivergedException("a gap: record " + index + " arrived, the replica expects " + next);
        }
        writer.write(word, MemorySegment.NULL, 0, 0);
    }

    private static void applyPart(ReplicaWriter writer, UnsafeBuffer in, MemorySegment inSegment, int at) {
        long index = Batch.index(in, at);
        long next = writer.nextIndex();
        if (index < next) {
            return; // held already (the stream restarted before it)
        }
        if (index != next) {
            throw new ReplicaDivergedException("a part of record " + index + " arrived, the replica expects " + next);
        }
        writer.writePart(index, Batch.runPosition(in, at), Batch.partRecordLength(in, at), Batch.partOffset(in, at),
                inSegment, at + Batch.PART_BYTES, Batch.partLength(in, at));
    }

    private static void applyRun(ReplicaWriter writer, UnsafeBuffer in, MemorySegment inSegment, int at) {
        long index = Batch.index(in, at);
        int count = Batch.runCount(in, at);
        long next = writer.nextIndex();
        if (index <= next - count) { // index + count <= next, without overflow (next >= -1, count >= 1)
            return; // held already (the stream restarted before it)
        }
        if (index != next) {
            throw new ReplicaDivergedException("a run of indices " + index + " to " + (index + count - 1)
                    + " arrived, the replica expects " + next);
        }
        writer.writeRun(index, Batch.runPosition(in, at), inSegment, at + Batch.RUN_BYTES, Batch.runLength(in, at),
                count);
    }
}
