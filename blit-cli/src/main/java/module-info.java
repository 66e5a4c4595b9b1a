/**
 * Blit's operations tool, {@code blit.jar} ({@link io.blit.cli.BlitCli}): {@code tail}, {@code dump}, {@code stats},
 * {@code consumers}, {@code check} (a queue's integrity) and {@code replicate serve|follow|keygen}. Not a library:
 * {@code io.blit.cli} is exported for the queue's other tools ({@code queue-demo.jar}), which carry the same commands
 * and share the way a command line runs ({@link io.blit.cli.CliSupport}).
 */
module io.blit.cli {
    requires io.blit.queue;
    // replicate serve|follow|keygen.
    requires io.blit.replication;
    // The command line parses with picocli; the tools that add these commands to theirs use its types too.
    requires transitive info.picocli;

    exports io.blit.cli;
    // picocli fills the commands' option fields and creates their converters by reflection.
    opens io.blit.cli to info.picocli;
}
