#!/usr/bin/env bash
# The queue's and replication's throughput and the tc latency of two builds, alternating in one invocation, so
# that a shared machine's drift falls on both alike: how a change is compared before and after.
#
#   benchmarks/scripts/side-by-side.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are checkouts built with
#   ./mvnw -q -DskipTests -Dblit.bench.smoke.skip=true package -pl benchmarks,queue-demo -am
# ROUNDS (default 3): each round runs every measurement once from BEFORE, then once from AFTER.
# Compare the medians per build; the spread is the range of the rounds.
set -euo pipefail
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
rounds=${3:-3}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
flags=(--sun-misc-unsafe-memory-access=allow --add-exports java.base/jdk.internal.misc=ALL-UNNAMED)
for build in "$before" "$after"; do
    for jar in benchmarks/target/benchmarks.jar queue-demo/target/queue-demo.jar; do
        [[ -f $build/$jar ]] || { echo "error: $build/$jar is missing: build that checkout first" >&2; exit 2; }
    done
done
echo "# $("$java" -version 2>&1 | head -1); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for round in $(seq 1 "$rounds"); do
    for side in before after; do
        build=${!side}
        echo "== round $round: $side ($(git -C "$build" rev-parse --short HEAD))"
        "$java" "${flags[@]}" -cp "$build/benchmarks/target/benchmarks.jar" io.blit.benchmarks.queue.QueueThroughput \
            --messages 20000000 --runs 1 --mode both
        "$java" "${flags[@]}" -jar "$build/queue-demo/target/queue-demo.jar" bench --kind tc --rate 100000 \
            --count 200000 --runs 1
        "$java" "${flags[@]}" -cp "$build/benchmarks/target/benchmarks.jar" \
            io.blit.benchmarks.queue.ReplicationThroughput --runs 1 --protection authenticated,encrypted
    done
done
