package io.blit.tools.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.CommonContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Aeron floor's embedded drivers live where replication's do: in the user's private directory. */
@SuppressWarnings("try") // a receiver held open only for its driver
class AeronFloorEndpointsTest {
    @TempDir
    Path tmp;

    @Test
    void theDriversLiveInThePrivateDirectoryOfEmbeddedDrivers() throws IOException {
        String saved = System.getProperty(CommonContext.AERON_DIR_PROP_NAME);
        System.setProperty(CommonContext.AERON_DIR_PROP_NAME, tmp.resolve("aeron-u").toString());
        Path privateDir = tmp.resolve("aeron-u-blit");
        try {
            try (AeronFloorEndpoints.Receiver receiver = new AeronFloorEndpoints.Receiver(tmp.resolve("run"))) {
                assertEquals(List.of("aeron-u-blit", "run"), names(tmp), "nothing beside Aeron's default directory");
                assertEquals("rwx------", mode(privateDir));
                List<String> drivers = names(privateDir);
                assertEquals(1, drivers.size(), drivers.toString());
                assertTrue(drivers.get(0).startsWith("floor-receiver-"), drivers.toString());
                assertEquals("rwx------", mode(privateDir.resolve(drivers.get(0))));
            }
            assertEquals(List.of(), names(privateDir), "the driver deletes its directory on close");
        } finally {
            if (saved == null) {
                System.clearProperty(CommonContext.AERON_DIR_PROP_NAME);
            } else {
                System.setProperty(CommonContext.AERON_DIR_PROP_NAME, saved);
            }
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
