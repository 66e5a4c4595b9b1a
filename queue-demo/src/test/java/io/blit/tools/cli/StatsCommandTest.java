package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stats} as operators and scripts use it. */
class StatsCommandTest {
    @TempDir
    Path tmp;

    @Test
    void statsPrintsTheQueueLineAndOneLinePerConsumer() {
        String dir = tmp.resolve("q").toString();
        assertEquals(0, run("produce", "--dir", dir, "--count", "5000", "--type", "mixed").code());
        assertEquals(0, run("tail", "--dir", dir, "--consumer", "risk", "--count", "100").code());
        assertEquals(0, run("tail", "--dir", dir, "--consumer", "audit", "--count", "10").code());
        QueueCliTest.Result stats = run("stats", "--dir", dir);
        assertEquals(0, stats.code(), stats.err());
        List<String> lines = stats.lines();
        assertEquals(3, lines.size(), stats.out());
        assertTrue(lines.get(0).matches("\\S+Z queue end 5000 files 1 bytes 67108864 rate 0\\.0/s"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" consumer risk committed 99 lag 4900"), lines.get(1));
        assertTrue(lines.get(2).endsWith(" consumer audit committed 9 lag 4990"), lines.get(2));
    }

    @Test
    void watchPrintsASampleEverySecondAndBadInputIsExitTwo() {
        String dir = tmp.resolve("q").toString();
        assertEquals(0, run("produce", "--dir", dir, "--count", "10").code());
        QueueCliTest.Result watched = run("stats", "--dir", dir, "--watch", "--count", "2");
        assertEquals(0, watched.code(), watched.err());
        assertEquals(2, watched.lines().size(), watched.out());
        assertTrue(watched.lines().stream().allMatch(l -> l.contains(" queue end 10 ")), watched.out());
        QueueCliTest.Result missing = run("stats", "--dir", tmp.resolve("absent").toString());
        assertEquals(2, missing.code());
        assertEquals("error: no such directory: " + tmp.resolve("absent"), missing.err().strip());
        assertEquals(2, run("stats", "--dir", dir, "--watch", "--count", "0").code());
    }
}
