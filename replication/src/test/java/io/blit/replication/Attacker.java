package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A peer without the secret: its own media driver and Aeron client (as another host would have), publishing whatever
 * bytes a test gives it to a source's control endpoint or a replica's data endpoint, and raw UDP datagrams crafted as
 * Aeron frames of someone else's session (as an attacker on the path can).
 */
final class Attacker implements AutoCloseable {
    private final MediaDriver driver;
    private final Aeron aeron;
    private final DatagramSocket socket;

    Attacker(String name) {
        driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(name)
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        try {
            socket = new DatagramSocket();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A publication to {@code endpoint}'s {@code stream}, connected (extra channel parameters after a {@code |}). */
    ExclusivePublication publish(String endpoint, int stream, String parameters) {
        ExclusivePublication publication = aeron.addExclusivePublication(
                "aeron:udp?endpoint=" + endpoint + parameters, stream);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!publication.isConnected()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no subscriber on " + endpoint);
            }
            LockSupport.parkNanos(1_000_000);
        }
        return publication;
    }

    /** Offers {@code message}, waiting out back-pressure. */
    static void offer(ExclusivePublication publication, byte[] message) {
        UnsafeBuffer buffer = new UnsafeBuffer(message);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (publication.offer(buffer, 0, message.length) < 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not offer");
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** Sends one Aeron DATA frame carrying {@code payload} as session {@code sessionId}'s, at the given position. */
    void inject(String endpoint, int sessionId, int streamId, int termId, int termOffset, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(TappedDriver.HEADER + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(TappedDriver.HEADER + payload.length).put((byte) 0).put((byte) 0xC0)
                .putShort((short) TappedDriver.TYPE_DATA).putInt(termOffset).putInt(sessionId).putInt(streamId)
                .putInt(termId).putLong(0).put(payload);
        String[] hostPort = endpoint.split(":");
        try {
            socket.send(new DatagramPacket(frame.array(), frame.capacity(),
                    new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        socket.close();
        aeron.close();
        driver.close();
    }
}
