"""to_numpy against the physical floor, measured once, side by side (docs/readers.md, "Speed"). Not run in CI.

    python bench/bench_to_numpy.py --demo-jar queue-demo/target/queue-demo.jar --java JAVA [--count 10000000]

Writes a MarketData queue of COUNT records with the Java tools (``produce``, 256 MiB files) in a temporary
directory, then, with the files in the page cache, times (best of 5 each, one process):
  floor     numpy.fromfile of every segment file into a plain byte array (the same bytes, one copy);
  views     chunks(): zero-copy views of the mapped files plus the index column and the appended column as datetime64;
  to_numpy  to_numpy(): the structured array, copied out of the mapping;
and the Java tailer's rate over the same queue (TailerRate.java: a read-only queue's tailer into one reused
MarketData). Deletes the queue at the end.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import blit  # noqa: E402


def best(fn, runs=5):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--demo-jar", required=True)
    parser.add_argument("--java", required=True)
    parser.add_argument("--count", type=int, default=10_000_000)
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="blit-bench-")
    try:
        subprocess.run([args.java, "-jar", args.demo_jar, "produce", "--dir", directory, "--count", str(args.count),
                        "--segment-size", "256m"], check=True, stdout=subprocess.DEVNULL)
        files = sorted(glob.glob(os.path.join(directory, "segment-*.blitq")))
        total = sum(os.path.getsize(f) for f in files)

        def floor():
            for f in files:
                np.fromfile(f, dtype=np.uint8)

        with blit.open(directory) as q:
            def views():
                n = 0
                for chunk in q.chunks("MarketData"):
                    index, appended = chunk.index, chunk.records["appended"]
                    n += len(index) + 0 * len(appended)
                assert n == args.count

            def table():
                assert len(q.to_numpy("MarketData")) == args.count

            floor()  # the files into the page cache
            results = {"floor": best(floor), "views": best(views), "to_numpy": best(table)}
            check = q.to_numpy("MarketData")
            assert np.array_equal(check["securityId"], np.arange(args.count))
            del check
        java = subprocess.run([args.java, "-cp", args.demo_jar, os.path.join(os.path.dirname(__file__),
                                                                            "TailerRate.java"), directory],
                              check=True, capture_output=True, text=True).stdout.split()
        results["java tailer"] = float(java[2])
        print(f"{args.count} MarketData records, {len(files)} files, {total / 2**20:.0f} MiB")
        print("| reading | seconds | M records/s | × floor |")
        print("|---|---|---|---|")
        for name, seconds in results.items():
            print(f"| {name} | {seconds:.3f} | {args.count / seconds / 1e6:.1f} | {seconds / results['floor']:.2f} |")
    finally:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()
