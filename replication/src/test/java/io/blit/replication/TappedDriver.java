package io.blit.replication;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A media driver (for a source's or replica's {@code aeronDir}) whose receive endpoints show every received Aeron
 * frame to the test, as an observer on the path would see it, and drop none unless told ({@link #dropWhen}): how a
 * test captures a genuine SUBSCRIBE to replay, learns the accepted session's id and stream position to inject a frame
 * at, or holds a replica's message back, as an attacker on the path can.
 */
final class TappedDriver implements AutoCloseable {
    /** One Aeron DATA frame as received: its header fields and payload. */
    record Frame(int termOffset, int sessionId, int streamId, int termId, int frameLength, byte[] payload) {
        /** Where the next frame of this stream goes (frames are 32-aligned; a heartbeat has no length). */
        int nextOffset() {
            return termOffset + ((frameLength + 31) & ~31);
        }
    }

    static final int HEADER = 32;
    static final int TYPE_DATA = 1;

    private final MediaDriver driver;
    private final List<Consumer<Frame>> listeners = new CopyOnWriteArrayList<>();
    private volatile Predicate<Frame> drop = frame -> false;

    TappedDriver(String name) {
        LossGenerator tap = new LossGenerator() {
            @Override
            public boolean shouldDropFrame(InetSocketAddress address, UnsafeBuffer buffer, int length) {
                boolean dropped = false;
                for (int at = 0; at + HEADER <= length; ) {
                    int frameLength = buffer.getInt(at);
                    int type = buffer.getShort(at + 6) & 0xFFFF;
                    if (type == TYPE_DATA && frameLength >= 0 && at + Math.max(frameLength, HEADER) <= length) {
                        byte[] payload = new byte[Math.max(0, frameLength - HEADER)];
                        buffer.getBytes(at + HEADER, payload);
                        Frame frame = new Frame(buffer.getInt(at + 8), buffer.getInt(at + 12), buffer.getInt(at + 16),
                                buffer.getInt(at + 20), frameLength, payload);
                        listeners.forEach(listener -> listener.accept(frame));
                        dropped |= drop.test(frame);
                    }
                    if (type != TYPE_DATA || frameLength <= 0) {
                        break; // one control frame, or a heartbeat, per datagram
                    }
                    at += (frameLength + 31) & ~31;
                }
                return dropped;
            }
        };
        driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(name)
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .receiveChannelEndpointSupplier((channel, dispatcher, status, context) ->
                        new DebugReceiveChannelEndpoint(channel, dispatcher, status, context, tap, tap)));
    }

    void listen(Consumer<Frame> listener) {
        listeners.add(listener);
    }

    /** Drops every datagram that holds a frame {@code predicate} matches (Aeron's retransmissions of it too). */
    void dropWhen(Predicate<Frame> predicate) {
        drop = predicate;
    }

    String directory() {
        return driver.aeronDirectoryName();
    }

    @Override
    public void close() {
        driver.close();
    }
}
