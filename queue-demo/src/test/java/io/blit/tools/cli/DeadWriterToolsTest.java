package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-pass tools at a record claimed by a writer that died, and by one that lives: they never call a cut-short
 * queue whole. {@code check} counts every record up to the end and names the dead writer's index, or stops naming the
 * blocking index, the writer and the queue's end.
 */
class DeadWriterToolsTest {
    @TempDir
    Path tmp;

    @Test
    void aDeadWritersClaimIsSteppedOverAndNamedAndALiveOnesStopsTheToolsNamingIt() throws Exception {
        String dir = tmp.resolve("q").toString();
        assertEquals(0, run("produce", "--dir", dir, "--count", "1000").code());
        Process killed = claimer(dir);
        assertEquals("claimed 1000", lineOf(killed));
        killed.destroyForcibly();
        assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, run("produce", "--dir", dir, "--count", "500").code(), "a second producer goes on at 1001");

        QueueCliTest.Result checked = run("check", "--dir", dir);
        assertEquals(List.of("index 1000: abandoned by a writer that died", "1500 records ok"), checked.lines(),
                checked.err());
        assertEquals(0, checked.code());
        QueueCliTest.Result stats = run("stats", "--dir", dir);
        long end = Long.parseLong(stats.out().replaceAll("(?s).* queue end (\\d+) .*", "$1"));
        long records = Long.parseLong(checked.lines().getLast().replace(" records ok", ""));
        long abandoned = checked.lines().stream().filter(line -> line.contains("abandoned")).count();
        assertEquals(end, records + abandoned, "check's records and abandoned indices make up the queue's end");
        assertEquals(1501, end);

        QueueCliTest.Result dumped = run("dump", "--dir", dir, "--from", "999", "--to", "1002");
        List<String> dumpLines = dumped.lines();
        assertEquals(0, dumped.code(), dumped.out() + dumped.err());
        assertTrue(dumpLines.get(1).startsWith("index=999 "), dumped.out());
        assertEquals("# index 1000: abandoned by a writer that died", dumpLines.get(2));
        assertTrue(dumpLines.get(3).startsWith("index=1001 ") && dumpLines.get(4).startsWith("index=1002 "), dumped.out());
        assertEquals("# 3 records", dumpLines.get(5));

        QueueCliTest.Result tailed = run("tail", "--dir", dir, "--from", "1000", "--count", "2");
        assertEquals(0, tailed.code(), tailed.err());
        assertEquals("# index 1000: abandoned by a writer that died", tailed.lines().get(0));
        assertTrue(tailed.lines().get(1).startsWith("index=1001 ") && tailed.lines().get(2).startsWith("index=1002 "),
                tailed.out());

        Process live = claimer(dir);
        try {
            assertEquals("claimed 1501", lineOf(live));
            assertEquals(0, run("produce", "--dir", dir, "--count", "10").code(), "appended at 1502..1511");
            String stopped = "stopped at index 1501: claimed by live writer ";
            QueueCliTest.Result cut = run("check", "--dir", dir);
            assertEquals(QueueCli.CHECK_FAILED, cut.code(), cut.out());
            String last = cut.lines().getLast();
            assertTrue(last.startsWith(stopped) && last.contains("(pid " + live.pid() + ")")
                    && last.contains("the queue's end is 1512"), cut.out());
            assertEquals("index 1000: abandoned by a writer that died", cut.lines().getFirst());

            QueueCliTest.Result cutDump = run("dump", "--dir", dir, "--from", "1500");
            assertEquals(QueueCli.CHECK_FAILED, cutDump.code(), cutDump.out());
            assertTrue(cutDump.out().contains("# " + stopped), cutDump.out());
            QueueCliTest.Result cutTail = run("tail", "--dir", dir, "--from", "1500");
            assertEquals(QueueCli.CHECK_FAILED, cutTail.code(), cutTail.out());
            assertTrue(cutTail.lines().getFirst().startsWith("index=1500 "), cutTail.out());
            assertTrue(cutTail.lines().getLast().startsWith("# " + stopped), cutTail.out());
        } finally {
            live.destroyForcibly();
            live.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Process claimer(String dir) throws Exception {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                HangingClaimer.class.getName(), dir).redirectErrorStream(true).start();
    }

    private static String lineOf(Process process) throws Exception {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }
}
