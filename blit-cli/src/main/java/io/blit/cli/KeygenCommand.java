package io.blit.cli;

import io.blit.replication.SecretFile;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code replicate keygen}: writes a new replication secret ({@link SecretFile#create}) and says where. */
@Command(name = "keygen", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Write a new replication secret.",
                "",
                "Writes 32 random bytes (SecureRandom) to a new file F, created with mode 0600 (readable and writable "
                        + "by its owner only); never overwrites a file. Copy F to the source and every replica, "
                        + "keeping it owner-only: serve and follow refuse a secret file that group or others may "
                        + "read or write.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class KeygenCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--secret-file", required = true, paramLabel = "F", description = "the new secret file")
    private Path secretFile;

    KeygenCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        try {
            SecretFile.create(secretFile);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        } catch (UncheckedIOException e) {
            throw new BadInputException(e.getMessage() + ": " + e.getCause());
        }
        out.println("wrote a new " + SecretFile.MIN_BYTES + "-byte secret to " + secretFile
                + " (mode 0600); copy it to the source and every replica");
        return CliSupport.OK;
    }
}
