package io.blit.cli;

import static io.blit.cli.BlitCliRun.appendRaw;
import static io.blit.cli.BlitCliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.replica.Quarantine;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A quarantine queue read by {@code dump} and {@code check} as it is, and the live queue beside it without it. */
class QuarantineReadingTest {
    @TempDir
    Path tmp;

    @Test
    void dumpAndCheckReadAQuarantineFromItsFirstIndexAndTheLiveQueueWithoutIt() {
        Path dir = tmp.resolve("q");
        appendRaw(dir, 300);
        Path quarantine = Quarantine.moveFrom(dir, 120).orElseThrow().directory();

        Result dump = run("dump", "--dir", quarantine.toString());
        assertEquals(0, dump.code(), dump.err());
        List<String> records = dump.lines().stream().filter(l -> l.startsWith("index=")).toList();
        assertEquals(180, records.size(), dump.out());
        for (int n = 120; n < 300; n++) {
            String line = records.get(n - 120);
            byte[] payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(n).array();
            assertTrue(line.startsWith("index=" + n + " length=8 bytes=" + HexFormat.of().formatHex(payload) + " "),
                    line);
        }
        Result check = run("check", "--dir", quarantine.toString());
        assertEquals(0, check.code(), check.out() + check.err());
        assertEquals("180 records ok", check.out().strip());

        Result live = run("check", "--dir", dir.toString());
        assertEquals(0, live.code(), live.out() + live.err());
        assertEquals("120 records ok", live.out().strip());
        Result liveDump = run("dump", "--dir", dir.toString());
        assertEquals(120, liveDump.lines().stream().filter(l -> l.startsWith("index=")).count(), liveDump.out());
    }
}
