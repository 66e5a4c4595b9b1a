package io.blit.tools.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Properties;

/**
 * Where the two ends of a latency run over Aeron meet: the receiver (created first, in either mode) picks free UDP
 * ports on the loopback and a random secret and writes them to {@code aeron.properties} in the run's directory;
 * the sender reads them. The file is written to a temporary name and moved, so the sender never reads half of it.
 *
 * @param control  the source's control endpoint (replicated kind), or the receiver's endpoint (Aeron floor)
 * @param endpoint the replica's data endpoint (replicated kind)
 * @param secret   the replication secret
 */
record ReplicationRendezvous(String control, String endpoint, byte[] secret) {
    private static final String FILE = "aeron.properties";

    /** New free ports and a new secret, written to {@code dir}. */
    static ReplicationRendezvous create(Path dir) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        ReplicationRendezvous rendezvous = new ReplicationRendezvous(freeLoopback(), freeLoopback(), secret);
        Properties properties = new Properties();
        properties.setProperty("control", rendezvous.control);
        properties.setProperty("endpoint", rendezvous.endpoint);
        properties.setProperty("secret", HexFormat.of().formatHex(secret));
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(FILE + ".tmp");
            try (var out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                properties.store(out, "ports and secret of one latency run over Aeron");
            }
            Files.move(tmp, dir.resolve(FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE), e);
        }
        return rendezvous;
    }

    /**
     * What the receiver wrote to {@code dir}.
     *
     * @throws IllegalStateException if it is not there (the receiver is created, and ready, before the sender)
     */
    static ReplicationRendezvous read(Path dir) {
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve(FILE), StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("no " + FILE + " in " + dir + ": the receiver writes it first", e);
        }
        return new ReplicationRendezvous(properties.getProperty("control"), properties.getProperty("endpoint"),
                HexFormat.of().parseHex(properties.getProperty("secret")));
    }

    private static String freeLoopback() {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free UDP port on the loopback", e);
        }
    }
}
