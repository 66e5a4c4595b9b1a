package io.blit.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A Linux network namespace joined to the test's own by a veth pair: a host of its own for a process started in it
 * ({@link #exec}), reachable at {@link #inside()} from {@link #outside()}, the two ends of a private /30 of 10.x
 * addresses that no route of this machine covers, so no other host's address is ever used. Taking the outer end of
 * the link down ({@link #linkDown}) partitions the namespace from everything else, both ways; {@link #linkUp} heals
 * it. Names are random per instance, so concurrent runs do not meet. Needs root and {@code ip netns}
 * ({@link #unavailable()} says whether they are there). Not thread-safe.
 */
final class NetworkNamespace implements AutoCloseable {
    private static final int COMMAND_SECONDS = 10;

    private final String name;
    private final String outerLink;
    private final String inside;
    private final String outside;

    private NetworkNamespace(String id, int subnet) {
        name = "blit-part-" + id;
        outerLink = "bp" + id + "o";
        outside = address(subnet + 1);
        inside = address(subnet + 2);
    }

    /** {@return why namespaces cannot be made here, or null if they can} It makes and deletes one to find out. */
    static String unavailable() {
        if (!System.getProperty("os.name").startsWith("Linux")) {
            return "network namespaces are Linux's";
        }
        try {
            if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
                return "network namespaces need root";
            }
        } catch (IOException | UnsupportedOperationException e) {
            return "no uid: " + e;
        }
        String probe = "blit-probe-" + randomId();
        Result added = run("ip", "netns", "add", probe);
        if (added.code != 0) {
            return "ip netns add failed: " + added.output;
        }
        run("ip", "netns", "del", probe);
        return null;
    }

    /**
     * Creates the namespace, the veth pair and its addresses, both ends up (and the namespace's loopback).
     *
     * @throws IllegalStateException naming the command and its output if one fails (what was made is removed)
     */
    static NetworkNamespace create() {
        NetworkNamespace namespace = new NetworkNamespace(randomId(), freeSubnet());
        try {
            namespace.build();
            return namespace;
        } catch (RuntimeException e) {
            namespace.close();
            throw e;
        }
    }

    private void build() {
        String innerLink = outerLink.substring(0, outerLink.length() - 1) + "i";
        ip("netns", "add", name);
        ip("link", "add", outerLink, "type", "veth", "peer", "name", innerLink);
        ip("link", "set", innerLink, "netns", name);
        ip("addr", "add", outside + "/30", "dev", outerLink);
        ip("link", "set", outerLink, "up");
        ip("netns", "exec", name, "ip", "addr", "add", inside + "/30", "dev", innerLink);
        ip("netns", "exec", name, "ip", "link", "set", innerLink, "up");
        ip("netns", "exec", name, "ip", "link", "set", "lo", "up");
    }

    /** {@return the namespace's address, at its end of the link} */
    String inside() {
        return inside;
    }

    /** {@return this side's address, at the outer end of the link} */
    String outside() {
        return outside;
    }

    /** {@return {@code command} as a command line that runs it inside the namespace} */
    List<String> exec(List<String> command) {
        List<String> line = new ArrayList<>(List.of("ip", "netns", "exec", name));
        line.addAll(command);
        return line;
    }

    /** Takes the link down: nothing passes between the namespace and this side, either way. */
    void linkDown() {
        ip("link", "set", outerLink, "down");
    }

    /** Brings the link back up. */
    void linkUp() {
        ip("link", "set", outerLink, "up");
    }

    /**
     * Deletes the namespace and the veth pair, whatever of them exists. Stop the processes started in it first: a
     * process keeps its namespace, and the inner end of the link, alive.
     */
    @Override
    public void close() {
        run("ip", "netns", "del", name);
        run("ip", "link", "del", outerLink); // gone with the namespace, unless moving its peer into it failed
    }

    @Override
    public String toString() {
        return "namespace " + name + " (" + inside + ") linked to " + outside + " by " + outerLink;
    }

    /** A /30 in 10.64.0.0 to 10.255.255.255 that no route of this machine (in any table) overlaps. */
    private static int freeSubnet() {
        String routes = run("ip", "-4", "-o", "route", "show", "table", "all").output;
        for (int attempt = 0; attempt < 100; attempt++) {
            int subnet = (10 << 24) | ThreadLocalRandom.current().nextInt(64 << 16, 256 << 16) & ~3;
            if (routes.lines().noneMatch(route -> overlaps(route, subnet))) {
                return subnet;
            }
        }
        throw new IllegalStateException("no free /30 in 10.64.0.0/10 beside these routes:\n" + routes);
    }

    /** Whether the destination of {@code route} ({@code ip -o route} line) overlaps the /30 at {@code subnet}. */
    private static boolean overlaps(String route, int subnet) {
        for (String word : route.trim().split("\\s+", 3)) {
            if (word.matches("\\d+\\.\\d+\\.\\d+\\.\\d+(/\\d+)?")) {
                String[] prefix = word.split("/");
                int length = Math.min(prefix.length == 2 ? Integer.parseInt(prefix[1]) : 32, 30);
                int mask = length == 0 ? 0 : -1 << (32 - length);
                return (parse(prefix[0]) & mask) == (subnet & mask);
            }
        }
        return false; // "default", or no destination
    }

    private static int parse(String dotted) {
        int address = 0;
        for (String part : dotted.split("\\.")) {
            address = address << 8 | Integer.parseInt(part);
        }
        return address;
    }

    private static String address(int address) {
        return (address >>> 24) + "." + (address >> 16 & 0xff) + "." + (address >> 8 & 0xff) + "." + (address & 0xff);
    }

    private static String randomId() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    private static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Result result = run(command.toArray(String[]::new));
        if (result.code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + result.code + ": "
                    + result.output);
        }
    }

    private record Result(int code, String output) {
    }

    private static Result run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not end in " + COMMAND_SECONDS + " s");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException(String.join(" ", command)));
        }
    }
}
