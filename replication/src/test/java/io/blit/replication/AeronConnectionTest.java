package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AeronConnectionTest {
    @TempDir
    Path parent;

    @Test
    void deletesOnlyTheOldDirectoriesOfDeadDriversNamedLikeItsOwn() throws Exception {
        Path dead = old(Files.createDirectories(parent.resolve("aeron-u-blit-replica-dead").resolve("publications"))
                .getParent());
        Path young = Files.createDirectories(parent.resolve("aeron-u-blit-source-young"));
        Path foreign = old(Files.createDirectories(parent.resolve("aeron-u-other")));
        Path own = old(Files.createDirectories(parent.resolve("aeron-u-blit-source-own")));
        File live = parent.resolve("aeron-u-blit-replica-live").toFile();
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(live.getPath())
                .threadingMode(ThreadingMode.SHARED).dirDeleteOnShutdown(true))) {
            old(live.toPath());

            AeronConnection.deleteStaleDirectories(own.toFile());

            assertFalse(Files.exists(dead), "an old directory without a live driver is a killed process's leftover");
            assertTrue(Files.exists(young), "a young directory may belong to a driver still starting");
            assertTrue(Files.exists(foreign), "only directories named like the embedded drivers' are touched");
            assertTrue(Files.exists(own), "the caller's own directory is its driver's to delete");
            assertTrue(live.exists(), "a driver that heartbeats is alive, however old its directory");
        }
    }

    private static Path old(Path dir) throws Exception {
        Files.setLastModifiedTime(dir, FileTime.from(Instant.now().minusMillis(2 * AeronConnection.STALE_MILLIS)));
        return dir;
    }
}
