/**
 * Blit's layout verifier: decides whether a class is <em>trivially copyable</em> (every instance
 * field in its whole hierarchy is a primitive) and computes where its field block lies inside a heap
 * object, see {@link io.blit.layout.LayoutVerifier}.
 *
 * <p>{@code io.blit.layout.baseline} records and checks layout baselines (a JUnit-free assertion, and the
 * package-private command line {@code io.blit.layout.baseline.LayoutCli} that {@code layout-verifier-cli.jar}
 * runs; a command line is not API). {@code io.blit.layout.archunit} holds
 * ArchUnit rules for users; ArchUnit is an optional dependency ({@code requires static}), needed only
 * by whoever uses that package. picocli is optional the same way: only the command line parses with it
 * ({@code layout-verifier-cli.jar} carries it); the library, the JUnit assertion and the forked
 * measurement JVM never load it.
 *
 * <p>{@code io.blit.layout.internal} holds the one privileged accessor of the project and is exported
 * only to {@code io.blit.core}.
 */
module io.blit.layout {
    requires jdk.unsupported;
    requires jdk.management;
    requires static com.tngtech.archunit;
    requires static info.picocli;

    exports io.blit.layout;
    exports io.blit.layout.baseline;
    exports io.blit.layout.archunit;
    exports io.blit.layout.internal to io.blit.core;
    // picocli fills the command line's option fields and creates its converters by reflection.
    opens io.blit.layout.baseline to info.picocli;
}
