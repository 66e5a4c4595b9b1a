package io.blit.cli;

import io.blit.queue.replica.Quarantine;
import io.blit.queue.replica.QueueTerms;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quarantine list|drop}: the quarantine queues inside a queue directory (records an old primary set aside when
 * it rejoined, docs/failover.md "Rejoining"): listing them, and deleting one the operator has dealt with.
 */
@Command(name = "quarantine", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"List or drop the quarantine queues of a queue directory (records a rejoining old primary "
                + "set aside).", ""},
        commandListHeading = "%nCommands:%n",
        footer = {"", CliSupport.EXIT_CODES})
public final class QuarantineCommand implements Callable<Integer> {
    /** A quarantine's name: {@code from-<first index>-<UTC time>}, with {@code -2}, ... for a second move. */
    static final Pattern NAME = Pattern.compile("from-([0-9]{1,19})-[0-9]{8}T[0-9]{6}Z(-[0-9]{1,9})?");

    @Spec
    private CommandSpec spec;

    private QuarantineCommand() {
    }

    /**
     * The command with its subcommands {@code list} and {@code drop}, not yet configured
     * ({@link CliSupport#configure}).
     *
     * @param out where the subcommands print
     * @return the command line of {@code quarantine}
     */
    public static picocli.CommandLine commandLine(PrintStream out) {
        return new picocli.CommandLine(new QuarantineCommand()).addSubcommand(new ListCommand(out))
                .addSubcommand(new DropCommand(out));
    }

    /** No subcommand given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "list or drop expected");
    }

    /** {@code quarantine list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
            description = {"List the quarantine queues of a queue directory, one line each, oldest name first:",
                    "",
                    "  quarantine <name> from <first> end <end> records <n>",
                    "  incomplete <name>    (a move cut short: the next rejoin finishes or deletes it)",
                    "",
                    "name: the directory inside <dir>/quarantine, from-<first index>-<UTC time>; first: the index of "
                            + "its first record; end: the index after its last; n = end - first. Prints \"no "
                            + "quarantine in <dir>\" if there is none. Reads only.",
                    ""},
            footer = {"", CliSupport.EXIT_CODES})
    static final class ListCommand implements Callable<Integer> {
        private final PrintStream out;

        @Option(names = "--dir", required = true, paramLabel = "D", description = "the live queue's directory")
        private Path dir;

        ListCommand(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() {
            QueueFiles.existingQueue(dir);
            List<Path> entries = entries(dir);
            if (entries.isEmpty()) {
                out.println("no quarantine in " + dir);
            }
            for (Path entry : entries) {
                out.println(line(entry));
            }
            out.flush();
            return CliSupport.OK;
        }

        private static String line(Path entry) {
            String name = entry.getFileName().toString();
            Matcher matcher = NAME.matcher(name);
            if (!matcher.matches() || !complete(entry)) {
                return "incomplete " + name;
            }
            long from = Long.parseLong(matcher.group(1));
            long end = QueueTerms.status(entry).endIndex();
            return "quarantine " + name + " from " + from + " end " + end + " records " + (end - from);
        }
    }

    /** {@code quarantine drop}. */
    @Command(name = "drop", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
            description = {"Delete one quarantine queue for good, and print on one line:",
                    "",
                    "  dropped quarantine <name> from <first> end <end> records <n>",
                    "",
                    "Deletes <dir>/quarantine/<name> (as quarantine list names it) and its files, once its records "
                            + "are dealt with (replayed, archived or judged worthless). Refused as bad input (exit 2, "
                            + "nothing deleted): a name that is not a complete quarantine of the queue (not of the "
                            + "form "
                            + "from-<index>-<time>, no quarantine-of marker, a move cut short, a symbolic link, or "
                            + "holding a directory or a link).",
                    ""},
            footer = {"", CliSupport.EXIT_CODES})
    static final class DropCommand implements Callable<Integer> {
        private final PrintStream out;

        @Option(names = "--dir", required = true, paramLabel = "D", description = "the live queue's directory")
        private Path dir;

        @Option(names = "--name", required = true, paramLabel = "NAME",
                description = "the quarantine's name, from-<index>-<time>")
        private String name;

        DropCommand(PrintStream out) {
            this.out = out;
        }

        @Override
        public Integer call() {
            QueueFiles.existingQueue(dir);
            Matcher matcher = NAME.matcher(name);
            if (!matcher.matches()) {
                throw new BadInputException("--name " + name + " is not a quarantine's name (from-<index>-<time>; "
                        + "quarantine list --dir " + dir + " names them)");
            }
            Path entry = dir.resolve(Quarantine.DIRECTORY).resolve(name);
            if (!Files.isDirectory(dir.resolve(Quarantine.DIRECTORY), LinkOption.NOFOLLOW_LINKS)
                    || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                throw new BadInputException("no quarantine " + name + " in " + dir + " (a directory, not a link, "
                        + "in " + dir.resolve(Quarantine.DIRECTORY) + ")");
            }
            if (!complete(entry)) {
                throw new BadInputException("quarantine " + entry + " is not complete (no quarantine-of marker, or a"
                        + " move cut short: the next rejoin finishes it); nothing deleted");
            }
            List<Path> files = list(entry);
            for (Path file : files) {
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BadInputException("quarantine " + entry + " holds " + file + ", which is not a regular "
                            + "file: Blit deletes only what it wrote; nothing deleted");
                }
            }
            long from = Long.parseLong(matcher.group(1));
            long end = QueueTerms.status(entry).endIndex();
            try {
                for (Path file : files) {
                    Files.delete(file);
                }
                Files.delete(entry);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete quarantine " + entry + ": " + e.getMessage(), e);
            }
            out.println("dropped quarantine " + name + " from " + from + " end " + end + " records " + (end - from));
            out.flush();
            return CliSupport.OK;
        }
    }

    /** Whether a quarantine directory is complete: its marker, and no cut pending. */
    static boolean complete(Path entry) {
        return Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(entry.resolve("quarantine-of"), LinkOption.NOFOLLOW_LINKS)
                && !Files.exists(entry.resolve("cut-pending"), LinkOption.NOFOLLOW_LINKS)
                && QueueTerms.status(entry).role() == QueueTerms.Role.QUARANTINE;
    }

    /** The entries of {@code <dir>/quarantine}, sorted by name; none if it does not exist or is not a directory. */
    static List<Path> entries(Path dir) {
        Path quarantines = dir.resolve(Quarantine.DIRECTORY);
        if (!Files.isDirectory(quarantines, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        return list(quarantines);
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
