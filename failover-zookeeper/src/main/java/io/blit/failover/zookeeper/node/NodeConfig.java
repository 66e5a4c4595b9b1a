package io.blit.failover.zookeeper.node;

import io.blit.failover.zookeeper.FailoverOptions;
import io.blit.replication.ReplicaOptions;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's configuration file, a Java properties file (docs/failover.md, "Running a node from the command line"),
 * read into {@link FailoverOptions}. Every key is checked: a missing required key, an unknown key (a typo would
 * otherwise be a default silently taken), a malformed value, a secret or password file others may read: each is a
 * {@link BadConfigException} naming the file and the key. Stateless.
 *
 * <pre>
 * dir = /data/orders                      # the node's queue directory
 * node.id = node-a                        # unique in the group
 * zookeeper.connect = zk1:2181,zk2:2181,zk3:2181
 * group = /blit/orders                    # the group's znode: one per queue
 * control = 10.0.0.1:7000                 # where it serves as primary (replicate serve --control)
 * endpoint = 10.0.0.1:7001                # where it receives the primary's stream (replicate follow --endpoint)
 * secret.file = /etc/blit/orders.secret   # the replication secret, owner-only (replicate keygen)
 * # optional
 * advertise = orders-a.example:7000       # what the others send to, when not control
 * encrypt = false                         # encrypt every batch when primary
 * zookeeper.session.timeout = 10s         # 1s to 10m (ms or s)
 * zookeeper.connection.timeout = 5s       # 100ms to 10m, at most the session timeout
 * zookeeper.auth = none                   # none | digest | sasl
 * zookeeper.digest.user = blit-orders     # digest: the user and a file holding its password (owner-only)
 * zookeeper.digest.password.file = /etc/blit/zk-password
 * zookeeper.sasl.principal = blit/host@EXAMPLE.COM   # sasl: the principal and the JAAS login context
 * zookeeper.sasl.login.context = Client
 * </pre>
 */
final class NodeConfig {
    private static final Set<String> REQUIRED = Set.of("dir", "node.id", "zookeeper.connect", "group", "control",
            "endpoint", "secret.file");
    private static final Set<String> OPTIONAL = Set.of("advertise", "encrypt", "zookeeper.session.timeout",
            "zookeeper.connection.timeout", "zookeeper.auth", "zookeeper.digest.user",
            "zookeeper.digest.password.file", "zookeeper.sasl.principal", "zookeeper.sasl.login.context");
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m)");
    /** The longest password file read: ZooKeeper's digest takes passwords of up to 1024 characters. */
    private static final long MAX_PASSWORD_FILE = 4096;

    private final Path file;
    private final Properties values;

    private NodeConfig(Path file, Properties values) {
        this.file = file;
        this.values = values;
    }

    /**
     * {@return the options the file {@code file} gives}
     *
     * @throws BadConfigException naming the file and the problem: it cannot be read, a key is missing or unknown, a
     *                            value is malformed or refused by the options
     */
    static FailoverOptions read(Path file) {
        Properties values = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            values.load(in);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new BadConfigException(file + ": no such configuration file");
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            throw new BadConfigException(file + ": cannot read the configuration: " + e);
        }
        return new NodeConfig(file, values).options();
    }

    private FailoverOptions options() {
        Set<String> unknown = new TreeSet<>(values.stringPropertyNames());
        unknown.removeAll(REQUIRED);
        unknown.removeAll(OPTIONAL);
        if (!unknown.isEmpty()) {
            throw bad(unknown.iterator().next(), "unknown key (the keys: docs/failover.md, \"Running a node from the"
                    + " command line\")");
        }
        for (String key : new TreeSet<>(REQUIRED)) {
            required(key);
        }
        try {
            byte[] secret = secret(required("secret.file"));
            SourceOptions source = SourceOptions.of(required("control"), secret)
                    .encrypt(flag("encrypt"));
            String advertise = values.getProperty("advertise");
            if (advertise != null) {
                source = source.advertise(advertise.strip().split("\\s*,\\s*"));
            }
            String endpoint = required("endpoint");
            FailoverOptions options = FailoverOptions.of(Path.of(required("dir")), required("node.id"),
                    required("zookeeper.connect"), required("group"), source,
                    primary -> ReplicaOptions.of(primary, endpoint, secret));
            ReplicaOptions.of("127.0.0.1:1", endpoint, secret); // refuses a malformed endpoint now, not when following
            options = timeout(options, "zookeeper.session.timeout", FailoverOptions::sessionTimeout);
            options = timeout(options, "zookeeper.connection.timeout", FailoverOptions::connectionTimeout);
            return auth(options);
        } catch (BadConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) { // refused by the options: a node id, a path, an endpoint, ...
            throw new BadConfigException(file + ": " + e.getMessage());
        }
    }

    private FailoverOptions auth(FailoverOptions options) {
        String scheme = values.getProperty("zookeeper.auth", "none").strip();
        boolean digestKeys = values.containsKey("zookeeper.digest.user")
                || values.containsKey("zookeeper.digest.password.file");
        boolean saslKeys = values.containsKey("zookeeper.sasl.principal")
                || values.containsKey("zookeeper.sasl.login.context");
        switch (scheme) {
            case "none" -> {
                if (digestKeys || saslKeys) {
                    throw bad("zookeeper.auth", "none, but digest or sasl keys are given: set zookeeper.auth");
                }
                return options;
            }
            case "digest" -> {
                if (saslKeys) {
                    throw bad("zookeeper.auth", "digest, but sasl keys are given");
                }
                return options.digestAuth(required("zookeeper.digest.user"),
                        password(required("zookeeper.digest.password.file")));
            }
            case "sasl" -> {
                if (digestKeys) {
                    throw bad("zookeeper.auth", "sasl, but digest keys are given");
                }
                return options.saslAuth(required("zookeeper.sasl.principal"),
                        values.getProperty("zookeeper.sasl.login.context", "Client").strip());
            }
            default -> throw bad("zookeeper.auth", "'" + scheme + "' is none of none, digest, sasl");
        }
    }

    /** {@code options} with the timeout {@code key} gives, if it is given, set by {@code setter}. */
    private FailoverOptions timeout(FailoverOptions options, String key,
                                    java.util.function.BiFunction<FailoverOptions, Duration, FailoverOptions> setter) {
        String text = values.getProperty(key);
        if (text == null) {
            return options;
        }
        try {
            return setter.apply(options, duration(key, text));
        } catch (IllegalArgumentException e) {
            if (e instanceof BadConfigException) {
                throw e;
            }
            throw bad(key, e.getMessage());
        }
    }

    private String required(String key) {
        String value = values.getProperty(key);
        if (value == null || value.isBlank()) {
            throw bad(key, "missing");
        }
        return value.strip();
    }

    private boolean flag(String key) {
        String value = values.getProperty(key, "false").strip();
        if (!value.equals("true") && !value.equals("false")) {
            throw bad(key, "'" + value + "' is neither true nor false");
        }
        return value.equals("true");
    }

    private Duration duration(String key, String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            throw bad(key, "'" + text.strip() + "' is not a duration such as 2500ms, 10s or 1m");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    private byte[] secret(String path) {
        try {
            return SecretFile.read(Path.of(path));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw bad("secret.file", e.getMessage());
        }
    }

    /** The password in {@code path}, its line end stripped: a regular file that neither group nor others may read. */
    private String password(String path) {
        Path passwordFile = Path.of(path);
        String key = "zookeeper.digest.password.file";
        try {
            if (!Files.isRegularFile(passwordFile, LinkOption.NOFOLLOW_LINKS)) {
                throw bad(key, passwordFile + " is not a regular file");
            }
            Set<PosixFilePermission> modes = Files.getPosixFilePermissions(passwordFile);
            if (modes.contains(PosixFilePermission.GROUP_READ) || modes.contains(PosixFilePermission.OTHERS_READ)) {
                throw bad(key, passwordFile + " may be read by its group or others: chmod 600 it");
            }
            if (Files.size(passwordFile) > MAX_PASSWORD_FILE) {
                throw bad(key, passwordFile + " is longer than " + MAX_PASSWORD_FILE + " bytes");
            }
            return Files.readString(passwordFile, StandardCharsets.UTF_8).stripTrailing();
        } catch (IOException e) {
            throw bad(key, "cannot read " + passwordFile + ": " + e);
        }
    }

    private BadConfigException bad(String key, String problem) {
        return new BadConfigException(file + ": " + key + ": " + problem);
    }

    /** A configuration the node cannot run with: its message is the one line the command prints. */
    static final class BadConfigException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadConfigException(String message) {
            super(message);
        }
    }
}
