package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SecretFile}: which files it takes as a secret, and the files it creates. */
class SecretFileTest {
    @TempDir
    Path tmp;

    @Test
    void readsTheBytesOfAFileOnlyItsOwnerMayReadAndWrite() throws IOException {
        byte[] shortest = bytes(32, 1);
        assertArrayEquals(shortest, SecretFile.read(file("a", shortest, "rw-------")));
        byte[] longest = bytes(1024, 2);
        assertArrayEquals(longest, SecretFile.read(file("b", longest, "r--------")));
        byte[] withNewline = "a passphrase of thirty-two bytes\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertArrayEquals(withNewline, SecretFile.read(file("c", withNewline, "rw-------")), "bytes as they are");
    }

    @Test
    void refusesASecretOfFewerThan32Bytes() throws IOException {
        Path file = file("short", bytes(31, 3), "rw-------");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SecretFile.read(file));
        assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains("holds 31 bytes")
                && refused.getMessage().contains("at least 32") && refused.getMessage().contains("keygen"),
                refused.getMessage());
    }

    @Test
    void refusesAFileOfMoreThan1KiB() throws IOException {
        Path file = file("long", bytes(1025, 4), "rw-------");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SecretFile.read(file));
        assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains("more than 1024"),
                refused.getMessage());
    }

    @Test
    void refusesAFileThatGroupOrOthersMayReadOrWrite() throws IOException {
        for (String mode : new String[] {"rw-r-----", "rw----r--", "rw--w----", "rw-----w-", "rw-r--r--"}) {
            Path file = file("open-" + mode, bytes(32, 5), mode);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> SecretFile.read(file), mode);
            assertTrue(refused.getMessage().contains(file.toString()) && refused.getMessage().contains(mode)
                    && refused.getMessage().contains("chmod 600"), refused.getMessage());
        }
    }

    @Test
    void refusesASymbolicLinkADirectoryAndAnotherUsersFile() throws IOException {
        Path target = file("target", bytes(32, 6), "rw-------");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
        IllegalArgumentException viaLink = assertThrows(IllegalArgumentException.class, () -> SecretFile.read(link));
        assertTrue(viaLink.getMessage().contains(link + " is a symbolic link"), viaLink.getMessage());

        Path directory = Files.createDirectory(tmp.resolve("dir"));
        IllegalArgumentException dir = assertThrows(IllegalArgumentException.class, () -> SecretFile.read(directory));
        assertTrue(dir.getMessage().contains(directory + " is a directory"), dir.getMessage());

        Path foreign = file("foreign", bytes(32, 7), "rw-------");
        try {
            Files.setOwner(foreign, foreign.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        } catch (IOException notRoot) {
            System.err.println("SecretFileTest: another user's file not tried (changing a file's owner needs root): "
                    + notRoot);
            org.junit.jupiter.api.Assumptions.abort("changing a file's owner needs root");
        }
        IllegalArgumentException owned = assertThrows(IllegalArgumentException.class, () -> SecretFile.read(foreign));
        assertTrue(owned.getMessage().contains("is owned by nobody"), owned.getMessage());
    }

    @Test
    void aMissingFileIsAnIoErrorNamingIt() {
        Path file = tmp.resolve("absent");
        UncheckedIOException missing = assertThrows(UncheckedIOException.class, () -> SecretFile.read(file));
        assertTrue(missing.getMessage().contains(file.toString()), missing.getMessage());
    }

    @Test
    void createsANewOwnerOnlyFileOf32RandomBytes() throws IOException {
        Path first = tmp.resolve("secret");
        SecretFile.create(first);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first)));
        byte[] secret = Files.readAllBytes(first);
        assertEquals(32, secret.length);
        assertArrayEquals(secret, SecretFile.read(first), "what it creates, it reads");
        Path second = tmp.resolve("other");
        SecretFile.create(second);
        assertFalse(Arrays.equals(secret, Files.readAllBytes(second)), "random");
    }

    @Test
    void neverOverwritesAFile() throws IOException {
        Path existing = file("secret", bytes(40, 6), "rw-------");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SecretFile.create(existing));
        assertTrue(refused.getMessage().contains(existing.toString()) && refused.getMessage().contains("exists"),
                refused.getMessage());
        assertArrayEquals(bytes(40, 6), Files.readAllBytes(existing));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(existing)));
    }

    private Path file(String name, byte[] content, String mode) throws IOException {
        Path file = Files.write(tmp.resolve(name), content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    private static byte[] bytes(int length, int seed) {
        byte[] bytes = new byte[length];
        new java.util.Random(seed).nextBytes(bytes);
        return bytes;
    }
}
