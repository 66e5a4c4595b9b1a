package io.blit.cli;

import io.blit.queue.Quarantined;
import io.blit.replication.Replica;
import io.blit.replication.ReplicaOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replicate follow}: follows a source into a replica directory until stopped, printing once a second the
 * replica's end and the rate ({@link ProgressLines#follow}); exits 1 if the source refuses the replica (the reason
 * in one line), or if no handshake succeeds within {@code --handshake-timeout} (a line naming what to check: a
 * request signed with another secret is never answered, so a wrong secret looks like no source at all). A tool that
 * knows message classes adds an option that names the ones the replica expects by overriding {@link #expectations}. Not
 * thread-safe: one instance runs one command line.
 */
@Command(name = "follow", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Follow a source into a replica directory.",
                "",
                "Prints once a second \"end E, R msg/s\": E the replica's end (the index its next record gets, "
                        + "as in status), R the records it gained in that second. The replica "
                        + "refuses local appends; tail, dump and check work on it. Runs until stopped; exits 1 if "
                        + "the source refuses it (another queue, another layout), or if no handshake with the "
                        + "source succeeds within --handshake-timeout (a wrong secret, a wrong --source or "
                        + "--endpoint, no source running: a source answers only requests signed with its secret).",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
public class FollowCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--dir", required = true, paramLabel = "R", description = "the replica directory")
    private Path dir;

    @Option(names = "--source", required = true, paramLabel = "HOST:PORT", description = "the source's --control")
    private String source;

    @Option(names = "--endpoint", required = true, paramLabel = "HOST:PORT",
            description = "where this replica receives the source's stream (UDP)")
    private String endpoint;

    @Option(names = "--secret-file", required = true, paramLabel = "F",
            description = "file holding the shared secret (32 to 1024 bytes, readable by its owner only; "
                    + "replicate keygen writes one)")
    private Path secretFile;

    @Option(names = "--sync", description = "force every batch to disk before acknowledging it")
    private boolean sync;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
            description = "directory of an external Aeron media driver (default: an embedded driver)")
    private String aeronDir;

    @Option(names = "--private", description = "create the replica's directory (mode 0700), its replica-of marker "
            + "and its files (mode 0600) readable and writable by this user only")
    private boolean privateFiles;

    @Option(names = "--rejoin", description = "let a former primary (a queue that takes appends) follow the primary "
            + "of a newer term: its appenders stop and its records the source does not hold are moved into a "
            + "quarantine queue inside it; without it such a directory is refused")
    private boolean rejoin;

    @Option(names = "--verify", description = "verify the replica's files first, as check does (a walk of every "
            + "record), and if a record is damaged, move it and every later one into a quarantine queue inside the "
            + "replica (kept, never deleted; a warning names it) and take them again from the source")
    private boolean verify;

    @Option(names = "--handshake-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "how long to wait for the first session with the source before giving up with exit 1 "
                    + "(default: ${DEFAULT-VALUE}; 0: wait for ever, e.g. when the replica starts before its source). "
                    + "Once a session was accepted, a lost source is waited for and resubscribed to for ever")
    private long handshakeTimeoutSeconds;

    @Option(names = "--encrypt", description = "require the source to encrypt every batch (AES-256-GCM); without it "
            + "batches are authenticated, not encrypted, unless the source encrypts")
    private boolean encrypt;

    @Option(names = "--until-caught-up", description = "exit 0, printing \"caught up with HOST:PORT at end E\", once "
            + "the replica holds every record below an end the source reported after follow started (so at least "
            + "the source's end when it started). A source reports its end when it has had nothing new to send for "
            + "100 ms: one appended to without such a pause is followed until it pauses")
    private boolean untilCaughtUp;

    /**
     * @param out where the progress lines go
     * @param err where the line of a refusal or a failure goes
     */
    public FollowCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Follows until stopped (SIGTERM, SIGINT).
     *
     * @return {@link CliSupport#OK} once stopped, {@link CliSupport#FAILED} if the source refused the replica, no
     *         handshake succeeded within the handshake timeout, the replica stopped, or the directory cannot be
     *         followed (its refusal printed as it is: another follower holds it, it is no replica, a file is damaged)
     * @throws InterruptedException if interrupted while waiting
     * @throws BadInputException if the secret file or an endpoint is refused
     */
    @Override
    public Integer call() throws InterruptedException {
        ReplicaOptions options = options();
        if (handshakeTimeoutSeconds < 0) {
            throw new BadInputException("--handshake-timeout " + handshakeTimeoutSeconds + " is negative");
        }
        Replica started;
        try {
            started = Replica.start(dir, options);
        } catch (IllegalStateException refused) {
            // the directory refuses to be followed; its message names why (another follower holds it, it is no
            // replica, one of its files is damaged): printed as it is, never guessed from the type
            err.println("error: " + CliSupport.oneLine(refused.getMessage()));
            return CliSupport.FAILED;
        }
        try (StopOnSignal stop = new StopOnSignal(); Replica replica = started) {
            out.println("following " + source + " into " + dir);
            out.flush();
            long before = Math.max(0, replica.nextIndex());
            int quarantinesShown = 0;
            long startedAt = System.nanoTime();
            while (!stop.awaitStop(1)) {
                List<Quarantined> quarantined = replica.quarantined();
                for (; quarantinesShown < quarantined.size(); quarantinesShown++) {
                    Quarantined tail = quarantined.get(quarantinesShown);
                    out.println("quarantined " + (tail.end() - tail.from()) + " records (index " + tail.from() + " to "
                            + (tail.end() - 1) + ") into " + tail.directory());
                }
                if (replica.refusal() != null) {
                    err.println("error: " + CliSupport.oneLine(replica.refusal().getMessage()));
                    return CliSupport.FAILED;
                }
                if (!replica.running()) {
                    err.println("error: the replica stopped: " + (replica.failure() == null ? "see its log"
                            : CliSupport.oneLine(String.valueOf(replica.failure().getMessage()))));
                    return CliSupport.FAILED;
                }
                if (handshakeTimeoutSeconds > 0 && replica.sessionsAccepted() == 0
                        && System.nanoTime() - startedAt > handshakeTimeoutSeconds * 1_000_000_000L) {
                    err.println("error: the handshake with source " + source + " failed: no session within "
                            + handshakeTimeoutSeconds + " s. Check that --secret-file holds the source's secret (a"
                            + " source answers only requests signed with its own secret), that the source serves on "
                            + source + " (its --control), and that it can reach this replica at " + endpoint);
                    return CliSupport.FAILED;
                }
                long held = Math.max(0, replica.nextIndex());
                out.println(ProgressLines.follow(held, before));
                out.flush();
                before = held;
                long sourceEnd = replica.sourceEnd();
                if (untilCaughtUp && sourceEnd >= 0 && held >= sourceEnd) {
                    out.println("caught up with " + source + " at end " + held);
                    out.flush();
                    return CliSupport.OK;
                }
            }
        }
        return CliSupport.OK;
    }

    /**
     * The replica's options as the command line gives them.
     *
     * @throws BadInputException if the secret file or an endpoint is refused
     */
    final ReplicaOptions options() {
        try {
            return expectations(ReplicaOptions.of(source, endpoint, ReplicateCommand.secret(secretFile)).sync(sync)
                    .aeronDir(aeronDir).sourceTimeout(Duration.ofSeconds(2)).privateFiles(privateFiles)
                    .requireEncryption(encrypt).rejoin(rejoin).verifyOnStart(verify));
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    /**
     * What the replica expects of the source's types ({@link ReplicaOptions#expectedLayout},
     * {@link ReplicaOptions#expectedTypes}), as options a subclass declares give it; this class expects nothing.
     *
     * @param options the options the command line gives, without expectations
     * @return {@code options} with the expectations added
     * @throws IllegalArgumentException if the options refuse the expectations (reported as bad input)
     */
    protected ReplicaOptions expectations(ReplicaOptions options) {
        return options;
    }
}
