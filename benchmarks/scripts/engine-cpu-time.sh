#!/usr/bin/env bash
# The copy engines side by side in thread CPU time (EngineCpuTime), alternating engines per case:
# usage: benchmarks/scripts/engine-cpu-time.sh [rounds]   (needs benchmarks/target/benchmarks.jar)
set -euo pipefail
cd "$(dirname "$0")/../.."
JAVA=${JAVA:-$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -1)}
ROUNDS=${1:-1}
for round in $(seq 1 "$ROUNDS"); do
  for block in MarketData BookUpdate Longs512; do
    for kind in confined shared global mapped; do
      for op in write read; do
        for engine in GENERATED GENERATED_FFM; do
          "$JAVA" --sun-misc-unsafe-memory-access=allow -Dio.blit.core.engine="$engine" \
            -cp benchmarks/target/benchmarks.jar io.blit.benchmarks.EngineCpuTime "$block" "$kind" "$op"
        done
      done
    done
  done
done
