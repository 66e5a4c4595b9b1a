package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.CommonContext;
import io.blit.cli.BlitCliRun.Result;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replicate keygen}, and what {@code serve} and {@code follow} refuse before they start. */
class ReplicateCliTest {
    @TempDir
    Path tmp;

    @Test
    void keygenWritesANewSecretOf32BytesOnlyItsOwnerMayRead() throws IOException {
        Path file = tmp.resolve("secret");
        Result result = BlitCliRun.run("replicate", "keygen", "--secret-file", file.toString());
        assertEquals(0, result.code(), result.err());
        assertEquals(1, result.out().lines().count(), result.out());
        assertTrue(result.out().contains(file.toString()), result.out());
        assertEquals("rw-------", mode(file));
        assertEquals(32, Files.size(file));
        assertArrayEquals(Files.readAllBytes(file), ReplicateCommand.secret(file), "serve and follow take it");
    }

    @Test
    void keygenNeverOverwritesAFile() throws IOException {
        Path file = Files.writeString(tmp.resolve("secret"), "an existing secret, thirty-two bytes or more");
        Result result = BlitCliRun.run("replicate", "keygen", "--secret-file", file.toString());
        assertEquals(2, result.code());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().startsWith("error: ") && result.err().contains(file.toString())
                && result.err().contains("exists"), result.err());
        assertEquals("an existing secret, thirty-two bytes or more", Files.readString(file));
    }

    @Test
    void theSecretFileIsRefusedWhenGroupOrOthersMayReadItOrItIsShort() throws IOException {
        for (String mode : new String[] {"rw-r--r--", "rw-r-----", "rw----r--"}) {
            Path file = secretFile("open-" + mode, 32, mode);
            BadInputException refused = assertThrows(BadInputException.class, () -> ReplicateCommand.secret(file), mode);
            assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains(mode),
                    refused.getMessage());
        }
        for (int length : new int[] {16, 31}) {
            Path file = secretFile("short-" + length, length, "rw-------");
            BadInputException refused = assertThrows(BadInputException.class, () -> ReplicateCommand.secret(file));
            assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains("at least 32"),
                    refused.getMessage());
        }
        Path absent = tmp.resolve("absent");
        BadInputException missing = assertThrows(BadInputException.class, () -> ReplicateCommand.secret(absent));
        assertTrue(missing.getMessage().contains(absent.toString()), missing.getMessage());
    }

    @Test
    void serveAndFollowRefuseASecretFileOthersMayReadInOneLine() throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 1);
        Path secret = secretFile("secret", 32, "rw-r--r--");
        Result served = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> BlitCliRun.run("replicate", "serve",
                "--dir", queue.toString(), "--control", loopback(), "--secret-file", secret.toString()));
        Result followed = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> BlitCliRun.run("replicate",
                "follow", "--dir", tmp.resolve("r").toString(), "--source", loopback(), "--endpoint", loopback(),
                "--secret-file", secret.toString()));
        for (Result result : new Result[] {served, followed}) {
            assertEquals(2, result.code(), result.out() + result.err());
            assertEquals(1, result.err().lines().count(), result.err());
            assertTrue(result.err().startsWith("error: the secret file " + secret) && result.err().contains("rw-r--r--"),
                    result.err());
        }
    }

    @Test
    void serveRefusesAnAdvertisedEndpointThatIsNotHostAndPortInOneLine() throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 1);
        Path secret = tmp.resolve("secret");
        assertEquals(0, BlitCliRun.run("replicate", "keygen", "--secret-file", secret.toString()).code());
        Result served = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> BlitCliRun.run("replicate", "serve",
                "--dir", queue.toString(), "--control", loopback(), "--secret-file", secret.toString(),
                "--advertise", "10.0.0.1:7000,nat.example|mtu=9000:7000"));
        assertEquals(2, served.code(), served.out() + served.err());
        assertEquals(1, served.err().lines().count(), served.err());
        assertTrue(served.err().startsWith("error: an endpoint is host:port")
                && served.err().contains("nat.example|mtu=9000:7000"), served.err());
    }

    @Test
    void serveRefusesAnUnsafeDirectoryForItsDriverInOneLine() throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 1);
        Path secret = tmp.resolve("secret");
        assertEquals(0, BlitCliRun.run("replicate", "keygen", "--secret-file", secret.toString()).code());
        Path privateDir = tmp.resolve("aeron-u-blit");
        Files.createSymbolicLink(privateDir, Files.createDirectory(tmp.resolve("elsewhere")));
        String saved = System.getProperty(CommonContext.AERON_DIR_PROP_NAME);
        System.setProperty(CommonContext.AERON_DIR_PROP_NAME, tmp.resolve("aeron-u").toString());
        try {
            Result served = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> BlitCliRun.run("replicate",
                    "serve", "--dir", queue.toString(), "--control", loopback(), "--secret-file", secret.toString()));
            assertEquals(2, served.code(), served.out() + served.err());
            assertEquals(1, served.err().lines().count(), served.err());
            assertTrue(served.err().startsWith("error: the embedded Aeron drivers' directory " + privateDir)
                    && served.err().contains("symbolic link"), served.err());
        } finally {
            if (saved == null) {
                System.clearProperty(CommonContext.AERON_DIR_PROP_NAME);
            } else {
                System.setProperty(CommonContext.AERON_DIR_PROP_NAME, saved);
            }
        }
    }

    private Path secretFile(String name, int length, String mode) throws IOException {
        byte[] bytes = new byte[length];
        new java.util.Random(length).nextBytes(bytes);
        Path file = Files.write(tmp.resolve(name), bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static String loopback() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
