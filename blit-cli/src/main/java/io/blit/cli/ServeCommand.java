package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.replication.ReplicaStatus;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SourceOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replicate serve}: serves a queue directory to replicas until stopped, printing once a second each
 * replica's acknowledged end, rate and lag behind the queue's end ({@link ProgressLines#serve}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Serve a queue to replicas.",
                "",
                "Prints once a second, per replica, \"replica PEER: end E, R msg/s, lag L\": E the end it "
                        + "acknowledged holding (the index its next record gets, as in status), R the records it "
                        + "acknowledged in that second, L the queue's records it has not (the queue's end - E); "
                        + "\"(disconnected)\" after PEER once its session ended. With no replica: \"end E, no "
                        + "replica\", E the queue's end. Runs until stopped.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class ServeCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the queue directory to serve")
    private Path dir;

    @Option(names = "--control", required = true, paramLabel = "HOST:PORT",
            description = "where replicas' requests and acknowledgements arrive (UDP)")
    private String control;

    @Option(names = "--secret-file", required = true, paramLabel = "F",
            description = "file holding the shared secret (32 to 1024 bytes, readable by its owner only; "
                    + "replicate keygen writes one)")
    private Path secretFile;

    @Option(names = "--mtu", paramLabel = "BYTES",
            description = "MTU of the stream to each replica, 1408 (default, Aeron's) to 65504 (the loopback's)")
    private int mtu = 1408;

    @Option(names = "--encrypt", description = "encrypt every batch to every replica (AES-256-GCM); without it batches"
            + " are authenticated, not encrypted, unless a replica asks (follow --encrypt)")
    private boolean encrypt;

    @Option(names = "--advertise", paramLabel = "HOST:PORT", split = ",",
            description = "the endpoint(s) replicas send to, when not --control as given (a wildcard or translated"
                    + " address); a request naming another endpoint is dropped (default: --control)")
    private java.util.List<String> advertised;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
            description = "directory of an external Aeron media driver (default: an embedded driver)")
    private String aeronDir;

    ServeCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("no queue directory " + dir);
        }
        SourceOptions options;
        try {
            options = SourceOptions.of(control, ReplicateCommand.secret(secretFile)).aeronDir(aeronDir).mtu(mtu).encrypt(encrypt);
            if (advertised != null) {
                options = options.advertise(advertised.toArray(String[]::new));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        ReplicationSource started;
        try {
            started = ReplicationSource.start(dir, options);
        } catch (IllegalArgumentException | IllegalStateException e) { // no queue; an unsafe driver directory
            throw new BadInputException(e.getMessage());
        }
        try (StopOnSignal stop = new StopOnSignal(); ReplicationSource source = started;
             BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            out.println("serving " + dir + " on " + control);
            out.flush();
            Map<String, Long> previous = new HashMap<>();
            while (!stop.awaitStop(1)) {
                long end;
                try (Tailer<Void> atEnd = queue.tailerFromEnd()) {
                    end = atEnd.index();
                }
                print(source.replicas(), end, previous);
            }
        }
        return CliSupport.OK;
    }

    private void print(List<ReplicaStatus> replicas, long end, Map<String, Long> previous) {
        if (replicas.isEmpty()) {
            out.println(ProgressLines.noReplica(end));
        }
        for (ReplicaStatus replica : replicas) {
            long before = previous.getOrDefault(replica.peer(), replica.committed());
            previous.put(replica.peer(), replica.committed());
            out.println(ProgressLines.serve(replica.peer(), replica.serving(), replica.committed(), before, end));
        }
        out.flush();
    }
}
