package io.blit.architecture;

import org.junit.jupiter.api.Test;

/** Which Blit module may depend on which, checked on every module's production classes. */
class ModuleRulesTest {

    @Test
    void layoutVerifierDependsOnNoOtherBlitModule() {
        BlitRules.LAYOUT_DEPENDS_ON_NO_OTHER_MODULE.check(ProductionClasses.get());
    }

    @Test
    void coreDependsOnlyOnLayoutVerifier() {
        BlitRules.CORE_DEPENDS_ONLY_ON_LAYOUT.check(ProductionClasses.get());
    }

    @Test
    void nothingDependsOnBenchmarks() {
        BlitRules.NOTHING_DEPENDS_ON_BENCHMARKS.check(ProductionClasses.get());
    }

    @Test
    void queueDependsOnlyOnCoreAndLayoutVerifier() {
        BlitRules.QUEUE_DEPENDS_ONLY_ON_CORE_AND_LAYOUT.check(ProductionClasses.get());
    }

    @Test
    void queueUsesNoThirdPartyLibrary() {
        BlitRules.QUEUE_USES_NO_THIRD_PARTY_LIBRARY.check(ProductionClasses.get());
    }

    @Test
    void replicationUsesOnlyTheQueueAndAeron() {
        BlitRules.REPLICATION_USES_ONLY_QUEUE_AND_AERON.check(ProductionClasses.get());
    }

    @Test
    void theCoordinatorUsesOnlyReplicationTheQueueAndCurator() {
        BlitRules.FAILOVER_USES_ONLY_REPLICATION_AND_CURATOR.check(ProductionClasses.get());
    }

    @Test
    void onlyTheCoordinatorUsesCuratorOrZooKeeper() {
        BlitRules.ONLY_THE_COORDINATOR_USES_ZOOKEEPER.check(ProductionClasses.get());
    }

    @Test
    void onlyBenchmarksAndStressTestsDependOnTheTools() {
        BlitRules.NOTHING_DEPENDS_ON_TOOLS.check(ProductionClasses.get());
    }

    @Test
    void theOperationsToolUsesOnlyTheQueueReplicationAndPicocli() {
        BlitRules.CLI_USES_ONLY_QUEUE_REPLICATION_AND_PICOCLI.check(ProductionClasses.get());
    }

    @Test
    void noModuleUsesAPackageAnotherModuleDoesNotExportToIt() {
        BlitRules.ONLY_EXPORTED_PACKAGES_CROSS_MODULES.check(ProductionClasses.get());
    }

    @Test
    void mavenPluginUsesNoOtherBlitModule() {
        BlitRules.MAVEN_PLUGIN_USES_NO_OTHER_MODULE.check(ProductionClasses.get());
    }

    @Test
    void nothingDependsOnTheMavenPlugin() {
        BlitRules.NOTHING_DEPENDS_ON_MAVEN_PLUGIN.check(ProductionClasses.get());
    }

    @Test
    void theQueueIsValuesEngineAndFacadesInLayers() {
        BlitRules.QUEUE_LAYERS.check(ProductionClasses.get());
    }

    @Test
    void theQueuesEngineAndReplicaPackagesFormNoCycle() {
        BlitRules.QUEUE_ENGINE_AND_REPLICA_FREE_OF_CYCLES.check(ProductionClasses.get());
    }

    @Test
    void theQueuesExceptionsAreOneFamily() {
        BlitRules.QUEUE_EXCEPTIONS_ARE_ONE_FAMILY.check(ProductionClasses.get());
    }

    @Test
    void theFormatDescriptorsAreTheBottom() {
        BlitRules.FORMAT_IS_THE_BOTTOM.check(ProductionClasses.get());
    }

    @Test
    void theEnginesPackagesAreLayered() {
        BlitRules.ENGINE_PACKAGES_LAYERED.check(ProductionClasses.get());
    }
}
