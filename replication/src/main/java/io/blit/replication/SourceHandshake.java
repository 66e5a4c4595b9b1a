package io.blit.replication;

import io.blit.layout.CorruptDescriptorException;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.TermHistory;
import io.blit.queue.TypeLayouts;
import java.lang.foreign.MemorySegment;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.util.Arrays;
import io.blit.queue.replica.SourceFiles;

/**
 * What a source checks of a signed subscribe request before it serves it, after its queue and terms
 * ({@link SourceTerms}): the same queue (the same queue id, and the
 * replica's newest file header equals the source's file of that first index, byte for byte), the same layout (the
 * replica's expected layout, if it names one, equals the source's, compared with {@link LayoutComparison}, which
 * names every differing field), and where the replica's records stop being the source's: a replica whose terms part
 * from the source's history before its next index (an old primary rejoining) is served from where they part, and
 * sets its records from there aside. Whether the source still holds the start index is checked when its stream opens.
 */
final class SourceHandshake {
    private SourceHandshake() {
    }

    /**
     * The index to stream from.
     *
     * @throws RefusalException naming what differs
     */
    static long check(BlitQueue<Void> queue, TermHistory history, Subscribe.Request request) {
        java.util.UUID queueId = history.queueId();
        if (!Wire.NO_QUEUE.equals(request.queueId()) && !request.queueId().equals(queueId)) {
            throw new RefusalException("a replica of another queue: it holds queue " + request.queueId()
                    + ", the source queue " + queue.directory() + " is queue " + queueId);
        }
        long[] files = queue.fileFirstIndices();
        if (request.expectedDescriptor() != null) {
            TypeLayouts expected;
            try {
                expected = TypeLayouts.decode(request.expectedDescriptor());
            } catch (IllegalArgumentException e) {
                throw new RefusalException("the replica's expected layouts do not decode: " + e.getMessage(), e);
            }
            TypeLayouts held = TypeLayouts.ofNewestFile(queue);
            if (held.raw() && !expected.raw()) {
                throw new RefusalException("the source queue " + queue.directory() + " holds raw payloads; the replica"
                        + " expects message types " + expected);
            }
            String difference = expected.differenceFrom(held);
            if (difference != null) {
                throw new RefusalException("layout differs between the source queue " + queue.directory()
                        + " and the replica: " + difference);
            }
        }
        if (!request.terms().isEmpty() && request.nextIndex() > 0) {
            // only term boundaries limit this: a replica ahead of its source within one term is refused below
            long shared = TermHistory.sharedEnd(history.terms(), Long.MAX_VALUE, request.terms(), request.nextIndex());
            if (shared < request.nextIndex()) {
                return shared; // the queue id and the shared term prove the queue; the replica's newer files are set aside
            }
        }
        if (request.newestHeader() == null) {
            return request.nextIndex() < 0 ? files[0] : request.nextIndex();
        }
        byte[] replicaHeader = request.newestHeader();
        long first = SourceFiles.firstIndex(replicaHeader);
        byte[] sourceHeader = first < 0 ? null : SourceFiles.fileHeader(queue, first);
        if (sourceHeader == null) {
            if (first >= 0 && first < files[0]) {
                if (request.nextIndex() < files[0]) {
                    throw new RefusalException("the source queue " + queue.directory() + " no longer holds index "
                            + request.nextIndex() + " (its files start at " + files[0] + ")");
                }
                return request.nextIndex();
            }
            throw new RefusalException("a replica of another queue: it holds "
                    + SourceFiles.describe(replicaHeader) + ", the source queue " + queue.directory()
                    + " has no such file");
        }
        if (!Arrays.equals(sourceHeader, replicaHeader)) {
            throw new RefusalException("a replica of another queue: it holds " + SourceFiles.describe(replicaHeader)
                    + ", the source queue " + queue.directory() + " holds " + SourceFiles.describe(sourceHeader));
        }
        return request.nextIndex();
    }
}
