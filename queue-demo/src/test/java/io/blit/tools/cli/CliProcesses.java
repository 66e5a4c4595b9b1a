package io.blit.tools.cli;

import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The tools' command line run as an operator runs it: in a JVM of its own, with this test JVM's class path. */
final class CliProcesses {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final List<String> FLAGS = List.of("--sun-misc-unsafe-memory-access=allow",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

    private CliProcesses() {
    }

    /** {@return the command that runs {@code QueueCli} with {@code arguments} in a new JVM} */
    static List<String> command(String... arguments) {
        List<String> command = new ArrayList<>(List.of(JAVA));
        command.addAll(FLAGS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), QueueCli.class.getName()));
        command.addAll(List.of(arguments));
        return command;
    }

    /** {@return a loopback {@code host:port} that was free a moment ago} */
    static String endpoint() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
