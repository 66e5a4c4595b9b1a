package io.blit.tools.cli;

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

    private static FollowCommand parse(String... args) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        FollowCommand command = new FollowCommand(sink, sink);
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
