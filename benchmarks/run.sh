#!/usr/bin/env bash
# Runs Blit's benchmark suite (io.blit.benchmarks.BenchmarkSuite) and writes its results.
#
#   benchmarks/run.sh              full run, the published configuration -> benchmarks/results/
#   benchmarks/run.sh --quick      smoke run, under 2 minutes           -> benchmarks/target/quick-results/
#   benchmarks/run.sh --out DIR    another output directory (relative paths: from the repository root)
#
# Builds what it needs (the shaded benchmarks jar and the modules it depends on, tests skipped) and runs
# the suite with the JDK 25 that Maven's toolchain discovery finds: no java path or JAVA_HOME needed.
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
    case "$arg" in
        *[[:space:]\"\']*) echo "run.sh: arguments with spaces or quotes are not supported: $arg" >&2; exit 2 ;;
    esac
done
exec ./mvnw -q -B -DskipTests -pl benchmarks -am -Psuite -Dsuite.args="$*" package
