package io.blit.queue;

import io.blit.queue.internal.QueueAccess;
import io.blit.queue.internal.RecordCursor;
import io.blit.queue.internal.RecordWalker;

/** {@link QueueAccess.Bridge}: what {@code io.blit.queue.replica} may use of this package. Stateless. */
final class QueueBridge implements QueueAccess.Bridge {
    @Override
    public RecordCursor seek(BlitQueue<?> queue, long index) {
        return RecordWalker.seek(queue.files(), index);
    }

    @Override
    public QueueAccess.Walk walk(BlitQueue<?> queue) {
        return new RecordWalker(queue.files(), queue.abandonGraceNanos());
    }

    @Override
    public void register(BlitQueue<?> queue, AutoCloseable cursor) {
        queue.register(cursor);
    }

    @Override
    public void unregister(BlitQueue<?> queue, AutoCloseable cursor) {
        queue.unregister(cursor);
    }
}
