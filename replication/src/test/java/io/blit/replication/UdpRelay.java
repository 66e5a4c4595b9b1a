package io.blit.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * An on-path attacker, or a NAT, for one UDP endpoint: every datagram sent to {@link #endpoint()} goes on to the
 * current target, and every answer from there back to whoever sent last. Aeron frames name no address, so a
 * publication to the relay talks to the target's media driver as if it were the relay's. The target can be switched
 * while it runs (the attack: send a peer's traffic to another host).
 */
final class UdpRelay implements AutoCloseable {
    private final DatagramChannel front;
    private final DatagramChannel back;
    private final Selector selector;
    private final Thread thread;
    private volatile InetSocketAddress target;
    private volatile boolean running = true;
    private SocketAddress client;

    UdpRelay(String target) {
        try {
            front = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            back = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            front.configureBlocking(false);
            back.configureBlocking(false);
            selector = Selector.open();
            front.register(selector, SelectionKey.OP_READ);
            back.register(selector, SelectionKey.OP_READ);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        target(target);
        thread = Thread.ofPlatform().name("udp-relay").daemon().start(this::run);
    }

    /** {@return the relay's own {@code host:port}} */
    String endpoint() {
        try {
            return "127.0.0.1:" + ((InetSocketAddress) front.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends what arrives from now on to {@code endpoint} ({@code 127.0.0.1:port}). */
    void target(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        target = new InetSocketAddress(endpoint.substring(0, colon), Integer.parseInt(endpoint.substring(colon + 1)));
    }

    private void run() {
        ByteBuffer datagram = ByteBuffer.allocateDirect(65536);
        try {
            while (running) {
                selector.select(100);
                selector.selectedKeys().clear();
                for (SocketAddress from; (from = receive(front, datagram)) != null; ) {
                    client = from;
                    back.send(datagram.flip(), target);
                }
                for (SocketAddress from; (from = receive(back, datagram)) != null; ) {
                    if (client != null) {
                        front.send(datagram.flip(), client);
                    }
                }
            }
        } catch (IOException e) {
            if (running) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static SocketAddress receive(DatagramChannel channel, ByteBuffer datagram) throws IOException {
        datagram.clear();
        return channel.receive(datagram);
    }

    @Override
    public void close() throws Exception {
        running = false;
        selector.wakeup();
        thread.join(5_000);
        selector.close();
        front.close();
        back.close();
    }
}
