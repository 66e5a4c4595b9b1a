package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.SecretFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The replica options {@code replicate follow} builds from its command line. */
class FollowCommandTest {
    @TempDir
    Path tmp;

    @Test
    void privateAsksForAReplicaWhoseFilesAreItsUsersOnly() {
        Path secret = tmp.resolve("secret");
        SecretFile.create(secret);
        String[] common = {"--dir", tmp.resolve("r").toString(), "--source", "127.0.0.1:7000",
                "--endpoint", "127.0.0.1:7001", "--secret-file", secret.toString()};
        assertFalse(parse(common).options().privateFiles(), "off by default");
        String[] withPrivate = java.util.Arrays.copyOf(common, common.length + 1);
        withPrivate[common.length] = "--private";
        assertTrue(parse(withPrivate).options().privateFiles());
    }

    @Test
    void encryptRequiresAnEncryptedSessionAndChannelParametersInAnEndpointAreRefused() {
        Path secret = tmp.resolve("secret");
        SecretFile.create(secret);
        String[] common = {"--dir", tmp.resolve("r").toString(), "--source", "127.0.0.1:7000",
                "--endpoint", "127.0.0.1:7001", "--secret-file", secret.toString()};
        assertFalse(parse(common).options().requireEncryption(), "off by default");
        String[] encrypted = java.util.Arrays.copyOf(common, common.length + 1);
        encrypted[common.length] = "--encrypt";
        assertTrue(parse(encrypted).options().requireEncryption());
        String[] injected = common.clone();
        injected[5] = "127.0.0.1:7001|term-length=1073741824";
        BadInputException refused = org.junit.jupiter.api.Assertions.assertThrows(BadInputException.class,
                () -> parse(injected).options());
        assertTrue(refused.getMessage().contains("an endpoint is host:port"), refused.getMessage());
    }

    @Test
    void rejoinLetsAFormerPrimaryFollowAndIsOffByDefault() {
        Path secret = tmp.resolve("secret");
        SecretFile.create(secret);
        String[] common = {"--dir", tmp.resolve("r").toString(), "--source", "127.0.0.1:7000",
                "--endpoint", "127.0.0.1:7001", "--secret-file", secret.toString()};
        assertFalse(parse(common).options().rejoin(), "off by default");
        String[] rejoin = java.util.Arrays.copyOf(common, common.length + 1);
        rejoin[common.length] = "--rejoin";
        assertTrue(parse(rejoin).options().rejoin());
    }

    private static FollowCommand parse(String... args) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        FollowCommand command = new FollowCommand(sink, sink);
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
