package io.blit.cli;

import io.blit.queue.replica.ServingReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code replicate status} adds for a directory a replication source serves: the source's {@link ServingReport}
 * as text lines and as the {@code serving} member of {@code --json} (docs/operations.md, "replicate status").
 * Stateless; thread-safe.
 */
final class ServingLines {
    /**
     * A report older than this is shown as stale: its source rewrites it every second and deletes it when it stops,
     * so an older one was left by a source that was killed (or whose disk is full).
     */
    static final long STALE_MILLIS = 5_000;

    private ServingLines() {
    }

    /** {@return the lines of {@code report} read at {@code nowMillis}: the source's, then one per replica} */
    static List<String> lines(ServingReport report, long nowMillis) {
        List<String> lines = new ArrayList<>(1 + report.replicas().size());
        long age = Math.max(0, nowMillis - report.writtenMillis());
        lines.add("served on " + report.control() + " by pid " + report.pid() + ", end " + report.end() + ", "
                + (report.replicas().isEmpty() ? "no replica" : report.replicas().size() + " replica"
                + (report.replicas().size() == 1 ? "" : "s")) + (age > STALE_MILLIS
                ? ", reported " + age / 1000 + " s ago: stale (its source stopped without deleting "
                + ServingReport.FILE_NAME + "?)" : ""));
        for (ServingReport.Replica replica : report.replicas()) {
            lines.add("replica " + String.format("%016x", replica.replicaId()) + " " + replica.endpoint() + ": term "
                    + replica.term() + ", end " + replica.acknowledged() + ", lag " + replica.lagRecords() + " records "
                    + (replica.lagMillis() < 0 ? "(age unknown)" : replica.lagMillis() + " ms")
                    + (replica.sync() ? ", sync" : "") + (replica.serving() ? "" : " (disconnected)"));
        }
        return lines;
    }

    /** Writes {@code report} as the value of a {@code serving} member: an object, or null if none. */
    static void json(JsonWriter json, Optional<ServingReport> report, long nowMillis) {
        if (report.isEmpty()) {
            json.value((String) null);
            return;
        }
        ServingReport r = report.get();
        json.beginObject().member("control", r.control()).member("pid", r.pid())
                .member("report_age_ms", Math.max(0, nowMillis - r.writtenMillis()))
                .member("stale", nowMillis - r.writtenMillis() > STALE_MILLIS).member("end", r.end())
                .name("replicas").beginArray();
        for (ServingReport.Replica replica : r.replicas()) {
            json.beginObject().member("replica_id", String.format("%016x", replica.replicaId()))
                    .member("endpoint", replica.endpoint()).member("peer", replica.peer())
                    .member("serving", replica.serving()).member("term", replica.term())
                    .member("end", replica.acknowledged()).member("forced_end", replica.forced())
                    .member("sync", replica.sync()).member("lag_records", replica.lagRecords()).name("lag_ms");
            if (replica.lagMillis() < 0) {
                json.value((String) null);
            } else {
                json.value(replica.lagMillis());
            }
            json.endObject();
        }
        json.endArray().endObject();
    }
}
