package io.blit.queue.internal.violation;

import io.blit.queue.replica.RecordStream;

/**
 * Fixture violating "the queue's engine and replica packages form no cycle": an engine class (in
 * io.blit.queue.internal..) uses the replica package, which uses the engine.
 */
public final class EngineUsesRecordStream {
    private EngineUsesRecordStream() {
    }

    public static int none() {
        return RecordStream.NONE;
    }

    public static void close(RecordStream stream) {
        stream.close();
    }
}
