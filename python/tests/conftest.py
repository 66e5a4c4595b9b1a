"""Queues for the tests: the committed format samples, and queues the Java tools write in this run (blit.jar's
``dump`` is the reference every reader is compared with). The Maven module ``readers`` passes the tools' paths:
BLIT_JAR, QUEUE_DEMO_JAR, BLIT_JAVA (a JDK 25 ``java``) and BLIT_C_READER (the C reader, built by the same run)."""

import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "queue" / "src" / "test" / "resources"
SAMPLE_DIRS = ["format-v1/typed", "format-v1/raw", "format-v2", "format-v3/typed", "format-v3/raw",
               "format-v4/typed", "format-v4/raw", "format-v5/typed", "format-v5/raw"]


def required(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"environment variable {name} is not set (the Maven module readers sets it)")
    return value


class Tools:
    """The Java tools of this build."""

    def __init__(self):
        self.java, self.blit_jar, self.demo_jar = required("BLIT_JAVA"), required("BLIT_JAR"), required("QUEUE_DEMO_JAR")
        self._dumps = {}

    def dump_once(self, directory):
        """:meth:`dump` of a directory no test modifies (a sample, a generated queue), run once per session."""
        key = str(directory)
        if key not in self._dumps:
            self._dumps[key] = self.dump(directory)
        return self._dumps[key]

    def run(self, jar, *args, jvm=(), check=True):
        result = subprocess.run([self.java, *jvm, "-jar", jar, *map(str, args)], capture_output=True, text=True,
                                timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"{args}: exit {result.returncode}: {result.stderr}")
        return result

    def produce(self, directory, count, kind="marketdata", segment_size="64k", jvm=()):
        self.run(self.demo_jar, "produce", "--dir", directory, "--count", count, "--type", kind,
                 "--segment-size", segment_size, jvm=jvm)

    def dump(self, directory):
        """dump's lines, without its first (the queue's description) and last (the count) lines, and its exit code."""
        result = self.run(self.blit_jar, "dump", "--dir", directory, check=False)
        lines = result.stdout.splitlines()
        assert lines[0].startswith("# queue "), result.stderr
        assert lines[-1].endswith(" records") or " records, " in lines[-1] or lines[-1].startswith("# stopped"), lines[-1]
        body = [line for line in lines[1:] if not (line.startswith("# ") and line.split()[1].isdigit()
                                                    and line.split()[2].startswith("record"))]
        return body, result.returncode


@pytest.fixture(scope="session")
def tools():
    return Tools()


#: Queues written by the Java tools in this run: name -> (produce arguments).
GENERATED = {
    "single": dict(count=300, kind="marketdata", segment_size="1m"),
    "book": dict(count=120, kind="book", segment_size="1m"),
    "mixed": dict(count=301, kind="mixed", segment_size="1m"),
    "several-files": dict(count=500, kind="marketdata", segment_size="12k"),
    "mixed-several-files": dict(count=200, kind="mixed", segment_size="12k"),
    "compact-headers": dict(count=100, kind="marketdata", segment_size="64k", jvm=("-XX:+UseCompactObjectHeaders",)),
    "no-compressed-class-pointers": dict(count=100, kind="book", segment_size="64k",
                                         jvm=("-XX:-UseCompressedClassPointers",)),
}


@pytest.fixture(scope="session")
def generated(tools, tmp_path_factory):
    """Each generated queue's directory (written once per session)."""
    base = tmp_path_factory.mktemp("generated")
    out = {}
    for name, spec in GENERATED.items():
        out[name] = base / name
        tools.produce(out[name], **spec)
    return out


@pytest.fixture(scope="session")
def quarantined(tools, tmp_path_factory):
    """{'rejoined': an old primary that rejoined as a replica, 'quarantine': the records it set aside}."""
    from replication import make_quarantine
    old, quarantine = make_quarantine(tools, tmp_path_factory.mktemp("failover"))
    return {"rejoined": old, "quarantine": quarantine}


def copy_queue(source, target):
    shutil.copytree(source, target)
    return pathlib.Path(target)
