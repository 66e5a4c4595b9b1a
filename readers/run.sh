#!/usr/bin/env bash
# The readers' tests (docs/readers.md), run by this module at verify: a venv under readers/target with the pinned,
# hash-checked NumPy, pandas and pytest of python/requirements.txt; the C reader compiled with -std=c11 -Wall -Werror;
# then pytest, which compares both readers with blit.jar's dump on the committed samples and on queues
# queue-demo.jar writes in this run. Needs python3 (with venv), cc, and BLIT_JAVA (set by RunReaders.java).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target="$root/readers/target"
: "${BLIT_JAVA:?BLIT_JAVA must name a JDK 25 java (RunReaders.java sets it)}"
mkdir -p "$target"
if [ ! -x "$target/venv/bin/python" ]; then
  python3 -m venv "$target/venv"
fi
"$target/venv/bin/pip" install --disable-pip-version-check --no-input -q \
  --require-hashes --only-binary :all: -r "$root/python/requirements.txt"
cc -std=c11 -Wall -Werror -O2 -o "$target/blit_reader" "$root/c/blit_reader.c"
export BLIT_C_READER="$target/blit_reader"
export BLIT_JAR="$root/blit-cli/target/blit.jar"
export QUEUE_DEMO_JAR="$root/queue-demo/target/queue-demo.jar"
export PYTHONDONTWRITEBYTECODE=1
cd "$root/python"
exec "$target/venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp "$target/pytest" tests
