package io.blit.tools.cli;

import io.blit.cli.FollowCommand;
import io.blit.core.BlockCopier;
import io.blit.replication.ReplicaOptions;
import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * {@code replicate follow} of {@code queue-demo.jar}: {@link FollowCommand} with {@code --type}, which names the demo
 * message types the replica expects of the source. Not thread-safe: one instance runs one command line.
 */
final class TypedFollowCommand extends FollowCommand {
    @Option(names = "--type", paramLabel = "marketdata|book|mixed", converter = MessageType.Converter.class,
            description = "refuse a source whose newest file holds other message types or layouts than these here "
                    + "(mixed: MarketData type 1 and BookUpdate type 2, as produce --type mixed writes)")
    private MessageType<?> type;

    TypedFollowCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    protected ReplicaOptions expectations(ReplicaOptions options) {
        if (type == MessageType.MIXED) {
            return options.expectedTypes(MixedStream.TYPES);
        }
        return type == null ? options : options.expectedLayout(BlockCopier.of(type.type()).layout().descriptor());
    }
}
