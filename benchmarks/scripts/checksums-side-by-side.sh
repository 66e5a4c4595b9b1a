#!/usr/bin/env bash
# The cost of record checksums (QueueOptions.recordChecksums) from one build, without and with them in turn in one
# invocation, so that a shared machine's drift falls on both alike: QueueThroughput (appender alone, appender +
# tailer, each thread's CPU a message) and the tc latency of `bench`.
#
#   benchmarks/scripts/checksums-side-by-side.sh [ROUNDS]
#
# Run from a checkout built with
#   ./mvnw -q -DskipTests -Dblit.bench.smoke.skip=true package -pl benchmarks,queue-demo -am
# ROUNDS (default 3): each round runs every measurement once without checksums, then once with them.
set -euo pipefail
rounds=${1:-3}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
flags=(--sun-misc-unsafe-memory-access=allow --add-exports java.base/jdk.internal.misc=ALL-UNNAMED)
for jar in benchmarks/target/benchmarks.jar queue-demo/target/queue-demo.jar; do
    [[ -f $jar ]] || { echo "error: $jar is missing: build this checkout first" >&2; exit 2; }
done
echo "# $("$java" -version 2>&1 | head -1); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for round in $(seq 1 "$rounds"); do
    for checksums in off on; do
        echo "== round $round: checksums $checksums"
        "$java" "${flags[@]}" -cp benchmarks/target/benchmarks.jar io.blit.benchmarks.queue.QueueThroughput \
            --messages 10000000 --runs 1 --segment-size 256m --dir /dev/shm --mode both --checksums "$checksums"
        bench=(bench --kind tc --rate 100000 --count 200000 --runs 1)
        [[ $checksums == on ]] && bench+=(--checksums)
        "$java" "${flags[@]}" -jar queue-demo/target/queue-demo.jar "${bench[@]}"
    done
done
