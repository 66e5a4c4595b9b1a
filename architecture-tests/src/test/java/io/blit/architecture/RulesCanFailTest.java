package io.blit.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.blit.architecture.violation.UsesBenchmarks;
import io.blit.architecture.violation.UsesCoreInternal;
import io.blit.architecture.violation.UsesCurator;
import io.blit.architecture.violation.UsesLayoutInternal;
import io.blit.architecture.violation.UsesMavenPlugin;
import io.blit.architecture.violation.UsesQueueInternal;
import io.blit.architecture.violation.UsesReplicationWire;
import io.blit.architecture.violation.UsesSunMiscUnsafe;
import io.blit.architecture.violation.UsesTools;
import io.blit.cli.violation.CliUsesHdrHistogram;
import io.blit.core.ViolatesNoPublicMutableFields;
import io.blit.core.violation.CoreUsesTools;
import io.blit.failover.zookeeper.violation.CoordinatorUsesTools;
import io.blit.layout.violation.LayoutUsesCore;
import io.blit.maven.violation.PluginUsesLayoutVerifier;
import io.blit.queue.BlitQueue;
import io.blit.queue.internal.directory.RecordWalker;
import io.blit.queue.internal.directory.SegmentDirectory;
import io.blit.queue.internal.directory.TimeRolls;
import io.blit.queue.internal.format.violation.FormatUsesSegmentHeader;
import io.blit.queue.internal.record.Checkpoints;
import io.blit.queue.internal.segment.violation.SegmentUsesCheckpoints;
import io.blit.queue.internal.violation.EngineDeclaresItsOwnException;
import io.blit.queue.internal.violation.EngineUsesBlitQueue;
import io.blit.queue.internal.violation.EngineUsesRecordStream;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.violation.QueueUsesHdrHistogram;
import io.blit.queue.violation.QueueUsesTools;
import io.blit.replication.violation.ReplicationUsesTools;
import io.blit.stress.violation.StressUsesCoreInternal;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that every rule of {@link BlitRules} can fail: each is evaluated against a deliberately
 * violating fixture of the test sources (imported on its own, never with the production classes) and
 * must report a violation that names the fixture.
 */
class RulesCanFailTest {

    @Test
    void layoutRuleRejectsLayoutClassUsingCore() {
        assertViolates(BlitRules.LAYOUT_DEPENDS_ON_NO_OTHER_MODULE, LayoutUsesCore.class);
    }

    @Test
    void coreRuleRejectsCoreClassUsingTools() {
        assertViolates(BlitRules.CORE_DEPENDS_ONLY_ON_LAYOUT, CoreUsesTools.class);
    }

    @Test
    void queueRuleRejectsQueueClassUsingTools() {
        assertViolates(BlitRules.QUEUE_DEPENDS_ONLY_ON_CORE_AND_LAYOUT, QueueUsesTools.class);
    }

    @Test
    void queueRuleRejectsQueueClassUsingAThirdPartyLibrary() {
        assertViolates(BlitRules.QUEUE_USES_NO_THIRD_PARTY_LIBRARY, QueueUsesHdrHistogram.class);
    }

    @Test
    void replicationRuleRejectsReplicationClassUsingTools() {
        assertViolates(BlitRules.REPLICATION_USES_ONLY_QUEUE_AND_AERON, ReplicationUsesTools.class);
    }

    @Test
    void coordinatorRuleRejectsCoordinatorClassUsingTools() {
        assertViolates(BlitRules.FAILOVER_USES_ONLY_REPLICATION_AND_CURATOR, CoordinatorUsesTools.class);
    }

    @Test
    void zookeeperRuleRejectsAClassOutsideTheCoordinatorUsingCurator() {
        assertViolates(BlitRules.ONLY_THE_COORDINATOR_USES_ZOOKEEPER, UsesCurator.class);
    }

    /** The coordinator's exception is real and exercised: it uses QueueTerms, and the rule accepts exactly that. */
    @Test
    void exportsRuleAllowsTheCoordinatorUsingTheQueuesTerms() {
        JavaClasses coordinator = ProductionClasses.get()
                .that(JavaClass.Predicates.resideInAPackage("io.blit.failover.zookeeper"));
        assertTrue(coordinator.stream().anyMatch(type -> type.getDirectDependenciesFromSelf().stream()
                        .anyMatch(d -> d.getTargetClass().getPackageName().equals("io.blit.queue.replica"))),
                "no imported class of the coordinator uses io.blit.queue.replica: the exception would be unused");
        EvaluationResult result = BlitRules.ONLY_EXPORTED_PACKAGES_CROSS_MODULES.evaluate(coordinator);
        assertFalse(result.hasViolation(), () -> "the coordinator's use of io.blit.queue.replica was rejected:\n"
                + result.getFailureReport());
    }

    @Test
    void mavenPluginRuleRejectsPluginClassUsingLayoutVerifier() {
        assertViolates(BlitRules.MAVEN_PLUGIN_USES_NO_OTHER_MODULE, PluginUsesLayoutVerifier.class);
    }

    @Test
    void mavenPluginRuleRejectsOutsiderUsingThePlugin() {
        assertViolates(BlitRules.NOTHING_DEPENDS_ON_MAVEN_PLUGIN, UsesMavenPlugin.class);
    }

    @Test
    void benchmarksRuleRejectsOutsiderUsingBenchmarks() {
        assertViolates(BlitRules.NOTHING_DEPENDS_ON_BENCHMARKS, UsesBenchmarks.class);
    }

    @Test
    void toolsRuleRejectsOutsiderUsingTools() {
        assertViolates(BlitRules.NOTHING_DEPENDS_ON_TOOLS, UsesTools.class);
    }

    @Test
    void unsafeRuleRejectsSunMiscUnsafeOutsideUnsafeAccess() {
        assertViolates(BlitRules.ONLY_UNSAFE_ACCESS_USES_PRIVILEGED_APIS, UsesSunMiscUnsafe.class);
    }

    /** javac refuses to compile against jdk.internal.misc under --release, so the fixture is generated. */
    @Test
    void unsafeRuleRejectsJdkInternalOutsideUnsafeAccess(@TempDir Path dir) throws IOException {
        String name = "io.blit.architecture.violation.UsesJdkInternalUnsafe";
        ClassDesc internalUnsafe = ClassDesc.of("jdk.internal.misc.Unsafe");
        byte[] bytes = ClassFile.of().build(ClassDesc.of(name), type -> type
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL)
                .withMethodBody("unsafe", MethodTypeDesc.of(internalUnsafe), ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC,
                        code -> code.invokestatic(internalUnsafe, "getUnsafe", MethodTypeDesc.of(internalUnsafe)).areturn()));
        Path file = dir.resolve(name.replace('.', '/') + ".class");
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);

        assertViolates(BlitRules.ONLY_UNSAFE_ACCESS_USES_PRIVILEGED_APIS, new ClassFileImporter().importPath(file), name);
    }

    @Test
    void fieldRuleRejectsPublicMutableFieldInExportedPackage() {
        assertViolates(BlitRules.NO_PUBLIC_MUTABLE_FIELDS_IN_EXPORTED_PACKAGES, ViolatesNoPublicMutableFields.class);
    }

    @Test
    void internalRuleRejectsOutsiderUsingCoreInternal() {
        assertViolates(BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE, UsesCoreInternal.class);
    }

    @Test
    void internalRuleRejectsNonCoreClassUsingLayoutInternal() {
        assertViolates(BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE, UsesLayoutInternal.class);
    }

    @Test
    void internalRuleRejectsOutsiderUsingQueueInternal() {
        assertViolates(BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE, UsesQueueInternal.class);
    }

    @Test
    void internalRuleRejectsStressTestsUsingAnInternalPackageOtherThanTheQueues() {
        assertViolates(BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE, StressUsesCoreInternal.class);
    }

    /**
     * The stress tests' exception is real and exercised: the imported jcstress tests do use
     * io.blit.queue.internal, and the rule accepts exactly that.
     */
    @Test
    void internalRuleAllowsStressTestsRacingQueueInternal() {
        JavaClasses stress = ProductionClasses.get().that(JavaClass.Predicates.resideInAPackage("io.blit.stress"));
        assertTrue(stress.stream().anyMatch(type -> type.getDirectDependenciesFromSelf().stream()
                        .anyMatch(d -> d.getTargetClass().getPackageName().startsWith("io.blit.queue.internal."))),
                "no imported stress test uses io.blit.queue.internal: the exception would be unused");
        EvaluationResult result = BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE.evaluate(stress);
        assertFalse(result.hasViolation(), () -> "the stress tests' use of io.blit.queue.internal was rejected:\n"
                + result.getFailureReport());
    }

    @Test
    void cliRuleRejectsAnOperationsCommandUsingAHarnessLibrary() {
        assertViolates(BlitRules.CLI_USES_ONLY_QUEUE_REPLICATION_AND_PICOCLI, CliUsesHdrHistogram.class);
    }

    @Test
    void exportsRuleRejectsAUseOfAnUnexportedPackageWhateverItsName() {
        assertViolates(BlitRules.ONLY_EXPORTED_PACKAGES_CROSS_MODULES, UsesReplicationWire.class);
    }

    /** The exports come from the compiled descriptors: every Blit module is read, and a qualified export is honoured. */
    @Test
    void exportsRuleReadsTheModuleDescriptorsAndHonoursQualifiedExports() {
        ModuleExports exports = ModuleExports.onClassPath();
        assertTrue(exports.modules().containsAll(java.util.Set.of("io.blit.layout", "io.blit.core", "io.blit.queue",
                "io.blit.replication", "io.blit.cli", "io.blit.tools")), exports.modules().toString());
        assertFalse(exports.mayUse(java.util.Optional.empty(), "io.blit.replication.wire"));
        assertTrue(exports.mayUse(java.util.Optional.empty(), "io.blit.replication"));
        assertTrue(exports.mayUse(java.util.Optional.of("io.blit.cli"), "io.blit.queue.replica"), "exported to it");
        assertFalse(exports.mayUse(java.util.Optional.of("io.blit.tools"), "io.blit.queue.replica"), "not to it");
        EvaluationResult core = BlitRules.ONLY_EXPORTED_PACKAGES_CROSS_MODULES
                .evaluate(new ClassFileImporter().importPackages("io.blit.core.internal"));
        assertFalse(core.hasViolation(), () -> "core's use of io.blit.layout.internal (exported to io.blit.core) was"
                + " rejected:\n" + core.getFailureReport());
    }

    @Test
    void internalRuleAllowsCoreUsingLayoutInternal() {
        EvaluationResult result = BlitRules.INTERNAL_PACKAGES_STAY_IN_THEIR_MODULE
                .evaluate(new ClassFileImporter().importPackages("io.blit.core.internal"));
        assertFalse(result.hasViolation(), () -> "core's use of io.blit.layout.internal was rejected:\n" + result.getFailureReport());
    }

    /** The layers consider dependencies between classes of the layers only: the facade used is imported too. */
    @Test
    void queueLayersRejectAnEngineClassUsingAFacade() {
        assertViolates(BlitRules.QUEUE_LAYERS,
                new ClassFileImporter().importClasses(EngineUsesBlitQueue.class, BlitQueue.class),
                EngineUsesBlitQueue.class.getName());
    }

    /**
     * A value type's class using the engine: the fixture is generated, because only the value type's own module may
     * declare a class in its nest. Named as a class nested in {@code QueueOptions}, it calls {@link TimeRolls}; an
     * engine class that takes {@code QueueOptions} ({@link SegmentDirectory}) is imported beside them, so the options
     * now reach the engine and the engine's use of them closes a cycle through the API package.
     */
    @Test
    void queueLayersRejectAValueTypeUsingTheEngine(@TempDir Path dir) throws IOException {
        String name = "io.blit.queue.QueueOptions$UsesEngine";
        ClassDesc timeRolls = ClassDesc.of(TimeRolls.class.getName());
        MethodTypeDesc boundaryAfter = MethodTypeDesc.ofDescriptor("(JJ)J");
        byte[] bytes = ClassFile.of().build(ClassDesc.of(name), type -> type
                .withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL)
                .withMethodBody("rollAt", boundaryAfter, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC,
                        code -> code.lload(0).lload(2).invokestatic(timeRolls, "boundaryAfter", boundaryAfter).lreturn()));
        Path file = dir.resolve(name.replace('.', '/') + ".class");
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        copyClassFile(TimeRolls.class, dir);
        copyClassFile(SegmentDirectory.class, dir);

        assertViolates(BlitRules.QUEUE_LAYERS, new ClassFileImporter().importPath(dir), name);
    }

    /** Values are derived, not listed: the production API's values (the options, an exception) pass the rule. */
    @Test
    void queueLayersAcceptTheEngineUsingValueTypes() {
        EvaluationResult result = BlitRules.QUEUE_LAYERS.evaluate(new ClassFileImporter().importClasses(
                SegmentDirectory.class, io.blit.queue.QueueOptions.class, io.blit.queue.QueueCorruptedException.class));
        assertFalse(result.hasViolation(), () -> result.getFailureReport().toString());
    }

    @Test
    void exceptionFamilyRuleRejectsAnEngineExceptionOutsideTheFamily() {
        assertViolates(BlitRules.QUEUE_EXCEPTIONS_ARE_ONE_FAMILY, EngineDeclaresItsOwnException.class);
    }

    @Test
    void formatRuleRejectsAFormatClassUsingTheSegmentHeader() {
        assertViolates(BlitRules.FORMAT_IS_THE_BOTTOM, FormatUsesSegmentHeader.class);
    }

    @Test
    void engineLayersRejectASegmentClassUsingTheRecordPackage() {
        assertViolates(BlitRules.ENGINE_PACKAGES_LAYERED, new ClassFileImporter().importClasses(
                SegmentUsesCheckpoints.class, Checkpoints.class), SegmentUsesCheckpoints.class.getName());
    }

    private static void copyClassFile(Class<?> type, Path dir) throws IOException {
        Path target = dir.resolve(type.getName().replace('.', '/') + ".class");
        Files.createDirectories(target.getParent());
        try (InputStream bytes = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            Files.copy(bytes, target);
        }
    }

    /** A slice cycle needs both directions imported: the fixture's use of replica, and replica's of the engine. */
    @Test
    void queueCycleRuleRejectsAnEngineClassUsingTheReplicaPackage() {
        assertViolates(BlitRules.QUEUE_ENGINE_AND_REPLICA_FREE_OF_CYCLES, new ClassFileImporter().importClasses(
                EngineUsesRecordStream.class, RecordStream.class, RecordWalker.class),
                EngineUsesRecordStream.class.getName());
    }

    private static void assertViolates(ArchRule rule, Class<?> fixture) {
        assertViolates(rule, new ClassFileImporter().importClasses(fixture), fixture.getName());
    }

    private static void assertViolates(ArchRule rule, JavaClasses fixture, String fixtureName) {
        assertTrue(fixture.contain(fixtureName), () -> fixtureName + " was not imported");
        EvaluationResult result = rule.evaluate(fixture);
        assertTrue(result.hasViolation(), () -> "rule '" + rule.getDescription() + "' accepted " + fixtureName);
        String report = result.getFailureReport().toString();
        assertTrue(report.contains(fixtureName), () -> "the report does not name " + fixtureName + ":\n" + report);
    }
}
