package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** blit.jar's commands, and the help of each, which renders without a picocli warning. */
class BlitHelpTextTest {
    @Test
    void theOperationsToolHasTheOperationsCommandsAndNoOther() {
        List<List<String>> commands = commands();
        assertEquals(List.of(List.of("tail"), List.of("consumers"), List.of("consumers", "remove"),
                List.of("consumers", "move"), List.of("stats"), List.of("dump"), List.of("check"),
                List.of("repair"), List.of("layout"), List.of("replicate"), List.of("replicate", "serve"), List.of("replicate", "follow"),
                List.of("replicate", "keygen"), List.of("replicate", "status"), List.of("replicate", "promote"),
                List.of("replicate", "fence"), List.of("quarantine"), List.of("quarantine", "list"),
                List.of("quarantine", "drop")),
                commands);
    }

    @Test
    void everyCommandsHelpPrintsNoPicocliWarningAndEndsWithTheExitCodes() {
        List<List<String>> commands = commands();
        commands.add(List.of());
        for (List<String> path : commands) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            PrintStream systemErr = System.err;
            BlitCliRun.Result result;
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8)); // picocli warns on System.err
            try {
                result = BlitCliRun.run(args.toArray(String[]::new));
            } finally {
                System.setErr(systemErr);
            }
            String warnings = stderr.toString(StandardCharsets.UTF_8) + result.err();
            assertFalse(warnings.contains("WARN"), String.join(" ", args) + ": " + warnings);
            assertEquals(0, result.code(), String.join(" ", args));
            assertTrue(result.out().contains("Usage: blit "), String.join(" ", args) + ": " + result.out());
            assertEquals(CliSupport.EXIT_CODES, result.out().strip().lines().toList().getLast(), String.join(" ", args));
        }
    }

    @Test
    void followHasNoDemoTypeOption() {
        BlitCliRun.Result help = BlitCliRun.run("replicate", "follow", "--help");
        assertFalse(help.out().contains("--type"), help.out());
        assertTrue(help.out().contains("--secret-file"), help.out());
    }

    private static List<List<String>> commands() {
        List<List<String>> into = new ArrayList<>();
        collect(BlitCli.commandLine(System.out, System.err), new ArrayList<>(), into);
        return into;
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
