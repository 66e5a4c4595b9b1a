package io.blit.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Map;

/**
 * Blit's architecture as ArchUnit rules, shared by the tests that check them against the production
 * classes ({@link ModuleRulesTest}, {@link AccessRulesTest}) and by the test that proves each can fail
 * ({@link RulesCanFailTest}).
 *
 * <p>Modules map to package roots: {@code layout-verifier} is {@code io.blit.layout}, {@code core}
 * {@code io.blit.core}, {@code queue} {@code io.blit.queue}, {@code queue-demo} (the tools around the queue)
 * {@code io.blit.tools}, {@code stress-tests} {@code io.blit.stress}, {@code benchmarks}
 * {@code io.blit.benchmarks}, {@code blit-maven-plugin} {@code io.blit.maven}, {@code blit-cli} {@code io.blit.cli},
 * {@code failover-zookeeper} {@code io.blit.failover.zookeeper}. Every rule keeps ArchUnit's {@code failOnEmptyShould}: a rule whose
 * subject matched no class fails instead of passing vacuously.
 */
final class BlitRules {
    static final String UNSAFE_ACCESS = "io.blit.layout.internal.UnsafeAccess";

    static final ArchRule LAYOUT_DEPENDS_ON_NO_OTHER_MODULE = noClasses()
            .that().resideInAPackage("io.blit.layout..")
            .should().dependOnClassesThat(blitClassesOutside("io.blit.layout.."))
            .because("layout-verifier is the bottom module: it knows layouts and nothing of copying");

    static final ArchRule CORE_DEPENDS_ONLY_ON_LAYOUT = noClasses()
            .that().resideInAPackage("io.blit.core..")
            .should().dependOnClassesThat(blitClassesOutside("io.blit.core..", "io.blit.layout.."))
            .because("core copies and knows nothing of queues or benchmarks");

    static final ArchRule NOTHING_DEPENDS_ON_BENCHMARKS = noClasses()
            .that().resideOutsideOfPackage("io.blit.benchmarks..")
            .should().dependOnClassesThat().resideInAPackage("io.blit.benchmarks..")
            .because("benchmarks use everything and nothing uses them");

    static final ArchRule QUEUE_DEPENDS_ONLY_ON_CORE_AND_LAYOUT = noClasses()
            .that().resideInAPackage("io.blit.queue..")
            .should().dependOnClassesThat(blitClassesOutside("io.blit.queue..", "io.blit.core..", "io.blit.layout.."))
            .because("the queue is a library: it depends on core (and so layout-verifier), never on a tool, a"
                    + " demo message, a stress test or a benchmark");

    static final ArchRule QUEUE_USES_NO_THIRD_PARTY_LIBRARY = classes()
            .that().resideInAPackage("io.blit.queue..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.management..", "io.blit.queue..",
                    "io.blit.core..", "io.blit.layout..")
            .because("a user who adds the queue gets the queue, core and layout-verifier and nothing else"
                    + " (no HdrHistogram, no command-line library; JMX is the JDK's, for the QueueMXBean)");

    static final ArchRule REPLICATION_USES_ONLY_QUEUE_AND_AERON = classes()
            .that().resideInAPackage("io.blit.replication..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.crypto..", "io.blit.replication..",
                    "io.blit.queue", "io.blit.queue.replica", "io.blit.core..", "io.blit.layout..", "io.aeron..",
                    "org.agrona..")
            .because("replication is a library on the queue's public API, its replication-only package (exported to"
                    + " replication alone) and Aeron: no tool, no command-line library, no queue internals (it writes"
                    + " replicas through ReplicaWriter)");

    static final ArchRule FAILOVER_USES_ONLY_REPLICATION_AND_CURATOR = classes()
            .that().resideInAPackage("io.blit.failover.zookeeper..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.blit.failover.zookeeper..",
                    "io.blit.replication", "io.blit.queue", "io.blit.queue.replica", "io.blit.core..",
                    "io.blit.layout..", "org.apache.curator..", "org.apache.zookeeper..")
            .because("the coordinator is an optional library on replication's public API, the queue's terms and"
                    + " Curator: no Aeron of its own, no tool, no command-line library, no queue internals");

    static final ArchRule ONLY_THE_COORDINATOR_USES_ZOOKEEPER = noClasses()
            .that().resideOutsideOfPackage("io.blit.failover.zookeeper..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.curator..", "org.apache.zookeeper..")
            .because("ZooKeeper is the optional coordinator's (module failover-zookeeper): a user who promotes by"
                    + " hand, and every other module, never needs Curator or ZooKeeper");

    static final ArchRule CLI_USES_ONLY_QUEUE_REPLICATION_AND_PICOCLI = classes()
            .that().resideInAPackage("io.blit.cli..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.blit.cli..", "io.blit.queue",
                    "io.blit.queue.replica", "io.blit.core..", "io.blit.layout..", "io.blit.replication", "picocli..")
            .because("blit-cli is the operations tool a production machine runs: the queue, replication and the"
                    + " command line, no latency harness, HdrHistogram, Jackson or demo message");

    static final ArchRule NOTHING_DEPENDS_ON_TOOLS = noClasses()
            .that().resideOutsideOfPackages("io.blit.tools..", "io.blit.benchmarks..", "io.blit.stress..")
            .should().dependOnClassesThat().resideInAPackage("io.blit.tools..")
            .because("queue-demo (io.blit.tools) holds the tools around the queue, not a library: only the"
                    + " benchmarks and stress tests, which use everything, use its MarketData message");

    static final ArchRule MAVEN_PLUGIN_USES_NO_OTHER_MODULE = noClasses()
            .that().resideInAPackage("io.blit.maven..")
            .should().dependOnClassesThat(blitClassesOutside("io.blit.maven.."))
            .because("the mojos run in Maven's JVM, which may be older than the release the other modules are"
                    + " compiled for: they run layout-verifier's command line in a forked JDK 25 JVM instead");

    static final ArchRule NOTHING_DEPENDS_ON_MAVEN_PLUGIN = noClasses()
            .that().resideOutsideOfPackage("io.blit.maven..")
            .should().dependOnClassesThat().resideInAnyPackage("io.blit.maven..", "org.apache.maven..")
            .because("the Maven plugin is a build tool: no library, tool or test of Blit uses it or Maven's API");

    static final ArchRule ONLY_UNSAFE_ACCESS_USES_PRIVILEGED_APIS = noClasses()
            .that().doNotHaveFullyQualifiedName(UNSAFE_ACCESS)
            .should().dependOnClassesThat(resideInAPackage("jdk.internal..").or(name("sun.misc.Unsafe")))
            .because(UNSAFE_ACCESS + " is the one holder of the privileged primitive; everything else calls it");

    static final ArchRule NO_PUBLIC_MUTABLE_FIELDS_IN_EXPORTED_PACKAGES = fields()
            .that().areDeclaredInClassesThat().resideInAnyPackage("io.blit.layout", "io.blit.core")
            .should().notBePublic().orShould().beFinal()
            .because("the exported API is immutable or encapsulated; a public mutable field is shared state"
                    + " nobody can guard (queue-demo's message classes are exempt by design)");

    /**
     * The only uses of another module's {@code internal} package: module (package root) to the internal package
     * it may use. core uses layout-verifier's privileged accessor (its module-info exports it to io.blit.core
     * alone); the jcstress tests race the queue's record protocol directly, the code the appenders and tailers run.
     */
    static final Map<String, String> ALLOWED_INTERNAL_USES = Map.of(
            "io.blit.core", "io.blit.layout.internal",
            "io.blit.stress", "io.blit.queue.internal");

    static final ArchRule INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE = classes()
            .should(new UseNoInternalsOfOtherModules(ALLOWED_INTERNAL_USES))
            .because("internal packages are not exported; the only exceptions are named in"
                    + " BlitRules.ALLOWED_INTERNAL_USES: " + ALLOWED_INTERNAL_USES);

    /**
     * The only uses of a package another module does not export, for code outside every module with a descriptor:
     * package root of the user to the package. The jcstress tests race the queue's record protocol directly; the
     * ZooKeeper coordinator, a class-path library (ZooKeeper's jars cannot be on the module path), promotes and fences
     * its queue directory through {@code QueueTerms}.
     */
    static final Map<String, String> ALLOWED_UNEXPORTED_USES = Map.of("io.blit.stress", "io.blit.queue.internal",
            "io.blit.failover.zookeeper", "io.blit.queue.replica");

    static final ArchRule ONLY_EXPORTED_PACKAGES_CROSS_MODULES = classes()
            .should(new UseOnlyExportedPackagesOfOtherModules(ModuleExports.onClassPath(), ALLOWED_UNEXPORTED_USES))
            .because("a package a module-info does not export is that module's own, whatever its name; the only"
                    + " exception is named in BlitRules.ALLOWED_UNEXPORTED_USES: " + ALLOWED_UNEXPORTED_USES);

    /**
     * The queue is a DAG at class level: the engine ({@code io.blit.queue.internal..}) takes and throws the API's value
     * types (exceptions, options, policies, the clock, type descriptions) and never uses a facade ({@code BlitQueue},
     * {@code Appender}, ..., {@code io.blit.queue.replica}), which use the engine. Which API classes are values is
     * derived from the bytecode ({@link EngineFreeApi}), never listed by hand. docs/architecture.md says why.
     */
    static final ArchRule QUEUE_LAYERS = classes().should(new EngineUsesOnlyEngineFreeApi())
            .because("a value type the engine uses must not reach back into the engine: that would be a cycle through"
                    + " the API package (docs/architecture.md)");

    /** The format descriptors are the bottom: offsets, bit fields, limits and versions, using nothing of the queue. */
    static final ArchRule FORMAT_IS_THE_BOTTOM = noClasses().that().resideInAPackage("io.blit.queue.internal.format..")
            .should().dependOnClassesThat(resideInAPackage("io.blit.queue..")
                    .and(resideOutsideOfPackages("io.blit.queue.internal.format..")))
            .because("every layer, the API's value types included, imports the format; it imports none of them");

    /**
     * The engine's packages, bottom to top: format, error, file, writer, segment, then record and sidecar, then
     * directory; the facades ({@code io.blit.queue}, {@code io.blit.queue.replica}) over all. A package uses only
     * the ones below it (docs/architecture.md, "The engine").
     */
    static final ArchRule ENGINE_PACKAGES_LAYERED = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Format").definedBy("io.blit.queue.internal.format..")
            .layer("Error").definedBy("io.blit.queue.internal.error..")
            .layer("File").definedBy("io.blit.queue.internal.file..")
            .layer("Writer").definedBy("io.blit.queue.internal.writer..")
            .layer("Segment").definedBy("io.blit.queue.internal.segment..")
            .layer("Record").definedBy("io.blit.queue.internal.record..")
            .layer("Sidecar").definedBy("io.blit.queue.internal.sidecar..")
            .layer("Directory").definedBy("io.blit.queue.internal.directory..")
            .layer("Facades").definedBy("io.blit.queue", "io.blit.queue.replica")
            .whereLayer("Directory").mayOnlyBeAccessedByLayers("Facades")
            .whereLayer("Sidecar").mayOnlyBeAccessedByLayers("Directory", "Facades")
            .whereLayer("Record").mayOnlyBeAccessedByLayers("Directory", "Facades")
            .whereLayer("Segment").mayOnlyBeAccessedByLayers("Record", "Sidecar", "Directory", "Facades")
            .whereLayer("Writer").mayOnlyBeAccessedByLayers("Segment", "Record", "Sidecar", "Directory", "Facades")
            .whereLayer("File").mayOnlyBeAccessedByLayers("Writer", "Segment", "Record", "Sidecar", "Directory",
                    "Facades")
            .whereLayer("Error").mayOnlyBeAccessedByLayers("File", "Writer", "Segment", "Record", "Sidecar",
                    "Directory", "Facades")
            .because("each engine package is read in one sitting with only the packages below it in mind");

    /**
     * The queue's refusals are one family: every {@link IllegalStateException} that the API package or the engine
     * declares is a {@link io.blit.queue.QueueException}, so that a caller catches the family, or switches over its
     * category, instead of listing its members (the replication-only package's two exceptions stand apart: a sealed
     * base of the API package cannot permit them without reaching that package).
     */
    static final ArchRule QUEUE_EXCEPTIONS_ARE_ONE_FAMILY = classes()
            .that().resideInAnyPackage("io.blit.queue", "io.blit.queue.internal..")
            .and().areAssignableTo(IllegalStateException.class)
            .should().beAssignableTo(io.blit.queue.QueueException.class)
            .because("callers catch QueueException (or switch over its category) instead of listing its members");

    static final ArchRule QUEUE_ENGINE_AND_REPLICA_FREE_OF_CYCLES = slices()
            .matching("io.blit.queue.(*)..")
            .should().beFreeOfCycles()
            .because("the replica package uses the engine; the engine never uses the replica package");

    private BlitRules() {
    }

    /** Classes of Blit ({@code io.blit..}) outside the given packages: the other modules. */
    private static DescribedPredicate<JavaClass> blitClassesOutside(String... ownPackages) {
        return resideInAPackage("io.blit..").and(resideOutsideOfPackages(ownPackages))
                .as("are Blit classes outside %s", String.join(", ", ownPackages));
    }
}
