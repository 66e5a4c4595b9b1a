package io.blit.failover.zookeeper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on the loopback between a ZooKeeper client and its server, the tests' fault-injecting layer: while it
 * is {@link #cut()}, bytes in both directions are read and dropped and new connections are held open unanswered, as a
 * network partition that drops packets looks to both ends (no reset: the client learns of it only by its read
 * timeout). {@link #heal()} closes every connection, so the client reconnects through a working proxy.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress upstream;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean cut;
    private volatile boolean paused;
    private volatile boolean closed;

    TcpProxy(int upstreamPort) {
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        upstream = new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort);
        Thread.ofPlatform().daemon().name("tcp-proxy-accept").start(this::accept);
    }

    /** {@return the proxy's {@code host:port}, the connect string of the client cut off through it} */
    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    void cut() {
        cut = true;
    }

    /**
     * Holds every byte in both directions, unread past what the pumps hold, until {@link #resume()}: a network that
     * stalls without dropping anything, as a long GC pause of one side looks to the other.
     */
    void pause() {
        paused = true;
    }

    /** Delivers what {@link #pause()} held, and everything after it. */
    void resume() {
        paused = false;
    }

    void heal() {
        cut = false;
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (cut) {
                    continue; // held open, unanswered
                }
                Socket server = new Socket(upstream.getAddress(), upstream.getPort());
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (!closed) {
                    continue; // the server refused one connection: the client tries again
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon().name("tcp-proxy-pump").start(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    while (paused && !cut && !closed) {
                        Thread.sleep(1);
                    }
                    if (!cut) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException ended) {
                // either side closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        heal();
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
