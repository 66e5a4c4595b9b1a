package io.blit.queue.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blit.core.BlockCopier;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.MarketData;
import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The temporaries a private queue writes are its user's only from the start, before they are published. */
class FileModesTest {
    static final long SIZE = 64 << 10;
    static final LayoutDescriptor LAYOUT = BlockCopier.of(MarketData.class).layout().descriptor();

    @TempDir
    Path dir;

    @Test
    void privateTemporariesAreTheUsersOnlyBeforeTheyArePublished() throws IOException {
        Path prepared = SegmentFiles.prepare(dir, 7, SIZE, LAYOUT, true, true);
        assertEquals("rw-------", mode(prepared));
        Path blank = SegmentFiles.prepareBlank(dir, SIZE, true);
        assertEquals("rw-------", mode(blank));
        SegmentFiles.publish(dir, 7, prepared);
        assertEquals("rw-------", mode(SegmentFiles.path(dir, 7)), "the published file is the temporary's inode");
    }

    @Test
    void privateDirectoriesAreTheUsersOnly() throws IOException {
        Path nested = dir.resolve("a").resolve("b");
        FileModes.createDirectories(nested, true);
        assertEquals("rwx------", mode(nested));
        assertEquals("rwx------", mode(nested.getParent()));
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
