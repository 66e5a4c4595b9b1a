#!/usr/bin/env bash
# Blit's queue and Chronicle Queue side by side in one run (docs/queue-vs-chronicle.md): QueueThroughput and
# ChronicleQueueThroughput alternately, each in a JVM of its own, MarketData, appender alone and with a tailer.
#
#   benchmarks/run-peer-throughput.sh                   5 alternations x 20,000,000 messages
#   benchmarks/run-peer-throughput.sh --runs 3 --messages 5000000
#
# Builds benchmarks.jar if needed (tests skipped) and runs it with the JDK 25 that Maven's toolchain discovery
# finds. The output goes to the console and to benchmarks/results/peer-throughput.txt (with date, CPU, load).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p benchmarks/results
{
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "# uptime before: $(uptime)"
    ./mvnw -q -B -DskipTests -Dblit.bench.smoke.skip=true -pl benchmarks -am -Ppeers \
        -Dpeers.args="io.blit.benchmarks.queue.PeerThroughput $*" package
    echo "# uptime after: $(uptime)"
} 2>&1 | tee benchmarks/results/peer-throughput.txt
