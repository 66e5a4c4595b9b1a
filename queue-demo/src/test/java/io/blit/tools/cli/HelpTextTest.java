package io.blit.tools.cli;

import io.blit.cli.CliSupport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's help renders without a picocli warning; error lines name one cause once. */
class HelpTextTest {
    @Test
    void everyCommandsHelpPrintsNoPicocliWarning() {
        List<List<String>> commands = new ArrayList<>();
        collect(QueueCli.commandLine(System.out, System.err), new ArrayList<>(), commands);
        assertTrue(commands.size() >= 12, "every command and subcommand: " + commands);
        for (List<String> path : commands) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            PrintStream systemErr = System.err;
            QueueCliTest.Result result;
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8)); // picocli warns on System.err
            try {
                result = QueueCliTest.run(args.toArray(String[]::new));
            } finally {
                System.setErr(systemErr);
            }
            String warnings = stderr.toString(StandardCharsets.UTF_8) + result.err();
            assertFalse(warnings.contains("WARN"), String.join(" ", args) + ": " + warnings);
            assertEquals(0, result.code(), String.join(" ", args));
            assertTrue(result.out().contains("Usage: "), String.join(" ", args) + ": " + result.out());
        }
    }

    @Test
    void anIoErrorLineNamesItsCauseOnce() {
        IOException full = new IOException("No space left on device");
        assertEquals("cannot create queue file F: No space left on device",
                CliSupport.ioLine(new UncheckedIOException("cannot create queue file F: No space left on device", full)));
        assertEquals("cannot list queue directory D: java.nio.file.AccessDeniedException: D",
                CliSupport.ioLine(new UncheckedIOException("cannot list queue directory D",
                        new java.nio.file.AccessDeniedException("D"))));
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> into) {
        for (var sub : command.getSubcommands().entrySet()) {
            if (sub.getKey().equals("help")) {
                continue;
            }
            List<String> subPath = new ArrayList<>(path);
            subPath.add(sub.getKey());
            into.add(subPath);
            collect(sub.getValue(), subPath, into);
        }
    }
}
