package io.blit.cli;

import io.blit.queue.replica.QueueRepair;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code repair}: restores a queue's damaged segment files from another copy of the same queue ({@link QueueRepair}). */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Restore a queue's damaged records from a replica (or a replica's from its primary).",
                "",
                "Runs check on D; for each segment file it finds damaged, and that R holds intact (check finds "
                        + "nothing in R's copy), writes R's bytes over every byte of D's file that differs, in the "
                        + "header area and in the records both copies must agree on: those below R's end in that file "
                        + "and below the first index where the two term histories part. The damaged file is kept "
                        + "first, whole, in D/repair/<UTC time>/, with a list of the ranges restored. Appenders may "
                        + "run meanwhile. R is only read; sidecar files are never copied. Prints:",
                "",
                "  restored FILE bytes OFFSET..END from R      (each range, END exclusive)",
                "  kept the damaged copies in DIR",
                "  not repaired: PROBLEM (why)                 (damage it could not restore)",
                "  repaired: check finds nothing               (exit 0), or",
                "  still damaged: PROBLEM                      (each damage check finds after it, exit 1)",
                "",
                "Refused with exit 2, nothing written: D or R holds no queue, they are the same directory, or "
                        + "R holds another queue (another queue id).",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class RepairCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the damaged queue directory")
    private Path dir;

    @Option(names = "--from", required = true, paramLabel = "R",
            description = "another copy of the queue: a replica of D, or D's source (a local or mounted directory)")
    private Path from;

    RepairCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        QueueRepair.Result result;
        try {
            result = QueueRepair.repair(dir, from);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        for (QueueRepair.Restored range : result.restored()) {
            out.println("restored " + range.file() + " bytes " + range.offset() + ".." + (range.offset() + range.length())
                    + " from " + from);
        }
        if (result.kept() != null) {
            out.println("kept the damaged copies in " + result.kept());
        }
        result.unrepaired().forEach(problem -> out.println("not repaired: " + problem));
        if (result.remaining().isEmpty()) {
            out.println("repaired: check finds nothing");
            out.flush();
            return CliSupport.OK;
        }
        result.remaining().forEach(problem -> out.println("still damaged: " + problem));
        out.flush();
        return CliSupport.FAILED;
    }
}
