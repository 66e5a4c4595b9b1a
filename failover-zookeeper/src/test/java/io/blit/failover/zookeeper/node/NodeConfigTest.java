package io.blit.failover.zookeeper.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.failover.zookeeper.FailoverNode;
import io.blit.failover.zookeeper.FailoverOptions;
import io.blit.replication.SecretFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration file of {@code failover node}: what it gives the node, and every bad configuration refused in one
 * line naming the file and the key, before anything starts; the role lines the node prints.
 */
class NodeConfigTest {
    @TempDir
    Path tmp;

    @Test
    void aCompleteFileGivesTheNodesOptions() throws IOException {
        Path password = Files.writeString(tmp.resolve("zk-password"), "a password of sixteen or more\n");
        Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
        FailoverOptions options = NodeConfig.read(config("zookeeper.session.timeout = 2500ms",
                "zookeeper.connection.timeout = 1s", "zookeeper.auth = digest", "zookeeper.digest.user = blit-orders",
                "zookeeper.digest.password.file = " + password, "advertise = orders-a.example:7000"));
        assertEquals(tmp.resolve("q"), options.dir());
        assertEquals("node-a", options.nodeId());
        assertEquals("127.0.0.1:2181", options.connectString());
        assertEquals("/blit/orders", options.groupPath());
        assertEquals(Duration.ofMillis(2500), options.sessionTimeout());
        assertEquals(Duration.ofSeconds(1), options.connectionTimeout());
        assertEquals("digest", options.authScheme());
        assertEquals("blit-orders", options.authIdentity());
        assertEquals("orders-a.example:7000", options.endpoint());
        assertEquals("127.0.0.1:7001", options.replicaFor("127.0.0.1:9000").endpoint());
        assertTrue(options.closeOnShutdown(), "the node's hook fences on SIGTERM");
    }

    @Test
    void everyBadConfigurationIsOneLineNamingTheFileAndTheKey() throws IOException {
        Path open = Files.writeString(tmp.resolve("open-password"), "a password of sixteen or more");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertRefused("node.id: missing", "node.id =");
        assertRefused("zookeeper.sesion.timeout: unknown key", "zookeeper.sesion.timeout = 2s");
        assertRefused("zookeeper.session.timeout: '2 seconds' is not a duration",
                "zookeeper.session.timeout = 2 seconds");
        assertRefused("zookeeper.session.timeout: sessionTimeout must be PT1S to 10 min, got PT20M",
                "zookeeper.session.timeout = 20m");
        assertRefused("zookeeper.auth: 'kerberos' is none of none, digest, sasl", "zookeeper.auth = kerberos");
        assertRefused("zookeeper.auth: none, but digest or sasl keys are given", "zookeeper.digest.user = u");
        assertRefused("zookeeper.digest.password.file: missing", "zookeeper.auth = digest",
                "zookeeper.digest.user = u");
        assertRefused("may be read by its group or others", "zookeeper.auth = digest", "zookeeper.digest.user = u",
                "zookeeper.digest.password.file = " + open);
        assertRefused("encrypt: 'yes' is neither true nor false", "encrypt = yes");
        assertRefused("an endpoint is host:port", "endpoint = nowhere");
        Files.setPosixFilePermissions(tmp.resolve("secret"), PosixFilePermissions.fromString("rw-r--r--"));
        assertRefused("secret.file: ", "");
    }

    @Test
    void aMissingFileIsOneLine() {
        Path absent = tmp.resolve("absent.properties");
        NodeConfig.BadConfigException refused = assertThrows(NodeConfig.BadConfigException.class,
                () -> NodeConfig.read(absent));
        assertEquals(absent + ": no such configuration file", refused.getMessage());
    }

    @Test
    void theCommandLineIsNodeAndConfig() {
        assertEquals(Path.of("f"), FailoverMain.configOf(List.of("node", "--config", "f")));
        assertEquals(Path.of("f"), FailoverMain.configOf(List.of("node", "--config=f")));
        assertEquals(null, FailoverMain.configOf(List.of("node", "--help")));
        assertTrue(assertThrows(NodeConfig.BadConfigException.class, () -> FailoverMain.configOf(List.of("nod")))
                .getMessage().startsWith("failover: node expected"));
        assertTrue(assertThrows(NodeConfig.BadConfigException.class, () -> FailoverMain.configOf(List.of("node",
                "--conf", "f"))).getMessage().startsWith("failover node: --conf f: --config FILE expected"));
    }

    @Test
    void aBadConfigurationEndsTheProcessWithExitTwoAndOneLine() throws Exception {
        Path config = config("zookeeper.auth = kerberos");
        Path err = tmp.resolve("err");
        Process process = new ProcessBuilder(NodeProcesses.command("node", "--config", config.toString()))
                .redirectError(err.toFile()).redirectOutput(tmp.resolve("out").toFile()).start();
        try {
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "exits");
            assertEquals(2, process.exitValue());
            assertEquals(List.of("error: " + config + ": zookeeper.auth: 'kerberos' is none of none, digest, sasl"),
                    Files.readAllLines(err));
            assertEquals("", Files.readString(tmp.resolve("out")));
            assertTrue(Files.notExists(tmp.resolve("q")), "nothing started, no directory created");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void eachRoleHasItsLineAndAPrimaryClosedFencedSaysFenced() {
        assertEquals("primary term 3", RoleLines.line(new FailoverNode.State(FailoverNode.Role.PRIMARY, 3, "a")));
        assertEquals("following node-b at term 3", RoleLines.line(new FailoverNode.State(FailoverNode.Role.FOLLOWER,
                3, "node-b")));
        assertEquals("waiting for a primary", RoleLines.line(new FailoverNode.State(FailoverNode.Role.FOLLOWER, -1,
                null)));
        assertEquals("fenced", RoleLines.line(new FailoverNode.State(FailoverNode.Role.FENCED, 3, null)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RoleLines lines = new RoleLines(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        lines.show(new FailoverNode.State(FailoverNode.Role.FOLLOWER, -1, null));
        lines.show(new FailoverNode.State(FailoverNode.Role.FOLLOWER, -1, null));
        lines.show(new FailoverNode.State(FailoverNode.Role.PRIMARY, 3, "a"));
        lines.closed(tmp); // not a fenced queue: no "fenced"
        lines.closed(tmp);
        assertEquals(List.of("waiting for a primary", "primary term 3", "left the group"),
                bytes.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /** The configuration of node-a with {@code more} lines (a key given twice: the later wins). */
    private Path config(String... more) throws IOException {
        Path secret = tmp.resolve("secret");
        if (Files.notExists(secret)) {
            SecretFile.create(secret);
        }
        List<String> lines = new ArrayList<>(List.of("dir = " + tmp.resolve("q"), "node.id = node-a",
                "zookeeper.connect = 127.0.0.1:2181", "group = /blit/orders", "control = 127.0.0.1:7000",
                "endpoint = 127.0.0.1:7001", "secret.file = " + secret));
        lines.addAll(List.of(more));
        return Files.write(tmp.resolve("node.properties"), lines);
    }

    private void assertRefused(String problem, String... more) throws IOException {
        Path file = config(more);
        NodeConfig.BadConfigException refused = assertThrows(NodeConfig.BadConfigException.class,
                () -> NodeConfig.read(file), problem);
        assertTrue(refused.getMessage().startsWith(file + ": ") && refused.getMessage().contains(problem),
                refused.getMessage());
        assertEquals(1, refused.getMessage().lines().count());
    }
}
