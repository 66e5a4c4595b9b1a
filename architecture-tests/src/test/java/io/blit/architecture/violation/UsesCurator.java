package io.blit.architecture.violation;

import org.apache.curator.framework.CuratorFramework;

/** Violates ONLY_THE_COORDINATOR_USES_ZOOKEEPER: a class outside the coordinator uses a Curator client. */
public final class UsesCurator {
    private UsesCurator() {
    }

    public static boolean started(CuratorFramework client) {
        return client.getState() == org.apache.curator.framework.imps.CuratorFrameworkState.STARTED;
    }
}
