package io.blit.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;

/** Free UDP ports for one test's endpoints: on the loopback, or on another local address. */
final class Ports {
    private Ports() {
    }

    static String loopback() {
        return on("127.0.0.1");
    }

    /** {@return {@code host:port} with a port free on {@code host}, an address of this machine} */
    static String on(String host) {
        try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(host, 0))) {
            return host + ":" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
