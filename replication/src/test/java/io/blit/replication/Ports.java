package io.blit.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;

/** Free UDP ports on the loopback for one test's endpoints. */
final class Ports {
    private Ports() {
    }

    static String loopback() {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
