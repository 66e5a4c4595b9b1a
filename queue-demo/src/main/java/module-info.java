/**
 * The demo tools around Blit's queue: the demo's command line ({@code io.blit.tools.cli}: produce, the content check,
 * the latency harness's commands, and the operations commands of {@code io.blit.cli}), the end-to-end
 * latency harness ({@code io.blit.tools.latency}), the demos ({@code io.blit.tools.demo}) and the demo's
 * message classes ({@code io.blit.tools.messages}), and the result files and charts the harness and the
 * benchmarks share ({@code io.blit.tools.report}). Not a library: only the benchmarks use it.
 */
module io.blit.tools {
    requires io.blit.queue;
    // The operations commands, which queue-demo.jar carries too, and CliSupport, which every tool runs with.
    requires transitive io.blit.cli;
    // replicate follow --type (io.blit.tools.cli), the replicated latency kind (io.blit.tools.latency).
    requires io.blit.replication;
    // The latency harness's aeron-floor kind uses Aeron directly (automatic modules).
    requires io.aeron.client;
    requires io.aeron.driver;
    requires org.agrona;
    // HdrHistogram 2.2.2 is an automatic module named after its jar (it has no Automatic-Module-Name).
    requires HdrHistogram;
    // The JSON result files (io.blit.tools.latency and io.blit.tools.report); io.blit.tools.report's public
    // methods take and return Jackson's tree nodes, so readers of this module read Jackson's module too.
    requires transitive tools.jackson.databind;
    // The command line (io.blit.tools.cli) parses with picocli.
    requires info.picocli;

    exports io.blit.tools.cli;
    exports io.blit.tools.demo;
    exports io.blit.tools.latency;
    exports io.blit.tools.messages;
    exports io.blit.tools.report;
    // Peer kinds of the latency harness (the benchmarks module's chronicle), found with ServiceLoader.
    uses io.blit.tools.latency.LatencyKind;
    // Lets Blit generate field-access code for the messages (CopyEngine.GENERATED) instead of
    // falling back to the slower word loop.
    opens io.blit.tools.messages to io.blit.core;
    opens io.blit.tools.latency to io.blit.core;
    // picocli fills the commands' option fields and creates their converters by reflection.
    opens io.blit.tools.cli to info.picocli;
    opens io.blit.tools.demo to info.picocli;
}
