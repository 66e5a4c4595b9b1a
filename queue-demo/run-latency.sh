#!/usr/bin/env bash
# The full end-to-end latency run (README, "End-to-end latency"): at 100,000 messages/s,
# 200,000 warm-up + 5 runs x 200,000 messages, the floor (no queue), trivially copyable and normal-object
# BookUpdates, first cross-thread, then cross-process. Writes queue-demo/results/latency-{thread,process}.{json,svg} and the
# console output with the machine's load to queue-demo/results/latency.txt.
#
#   queue-demo/run-latency.sh                the full run (about a minute on a quiet machine)
#   queue-demo/run-latency.sh --quick        5 runs x 20,000 messages instead, to try it out
#   queue-demo/run-latency.sh --with-peers   the floor, Blit's tc and Chronicle Queue's chronicle kind instead, from
#                                            benchmarks.jar (the peer is a dependency of the benchmarks only; its JVM
#                                            flags go on its own JVMs), in 3 rounds of 5 runs each, the kinds in
#                                            turn; writes latency-peers-{thread,process}.* and latency-peers.txt
#
# Builds queue-demo.jar if needed (tests skipped) and runs it with the JDK 25 that Maven's toolchain
# discovery finds: no java path or JAVA_HOME needed.
set -euo pipefail
cd "$(dirname "$0")/.."
count=200000
peers=false
case "${1:-}" in
    "") ;;
    --quick) count=20000 ;;
    --with-peers) peers=true ;;
    *) echo "usage: queue-demo/run-latency.sh [--quick | --with-peers]" >&2; exit 2 ;;
esac
results="$PWD/queue-demo/results"
case "$results" in
    *[[:space:]]*) echo "run-latency.sh: the repository path must not contain spaces: $results" >&2; exit 2 ;;
esac
mkdir -p "$results"
out="$results/latency.txt"
if $peers; then
    out="$results/latency-peers.txt"
fi
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "# uptime before: $(uptime)"
    for mode in thread process; do
        if $peers; then
            ./mvnw -q -B -DskipTests -Dblit.bench.smoke.skip=true -pl benchmarks -am -Ppeers \
                -Dpeers.args="io.blit.tools.cli.QueueCli bench --kind floor,tc,chronicle --mode $mode --rate 100000 --warmup 200000 --runs 5 --rounds 3 --count $count --json $results/latency-peers-$mode.json" \
                package
        else
            ./mvnw -q -B -DskipTests -pl queue-demo -am -Platency \
                -Dlatency.args="bench --kind floor,tc,normal --mode $mode --rate 100000 --warmup 200000 --runs 5 --count $count --json $results/latency-$mode.json" \
                package
        fi
        echo
    done
    echo "# uptime after: $(uptime)"
} 2>&1 | tee "$out"
