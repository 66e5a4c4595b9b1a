"""A quarantine written by the Java tools, as an operator makes one (docs/failover.md): a primary ``old`` replicated to
``promoted``; ``old`` appends 30 records ``promoted`` never gets; ``promoted`` is promoted and appends 20; ``old``
rejoins as its replica (``replicate follow --rejoin``), which moves its 30 records into ``old/quarantine/from-100-*``."""

import os
import signal
import socket
import subprocess
import time


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(path, text, process, seconds=60, also=None):
    """Waits (at most ``seconds``) until the file at ``path`` contains ``text``; a failure shows ``also`` too."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and text in open(path).read():
            return
        if process.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"{path} never said {text!r} (exit {process.poll()}): {open(path).read()[-2000:]}"
                         + (f"\n{also}:\n{open(also).read()[-2000:]}" if also else ""))


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def serve_and_follow(tools, work, source, replica, last_index, rejoin):
    """Serves ``source`` and follows it into ``replica`` until the follower holds ``last_index`` (its progress line
    says ``end <last_index + 1>,``: the end is the next index, as in ``replicate status``)."""
    control, endpoint = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    secret = str(work / "secret")
    log = work / f"follow-{os.path.basename(replica)}-{rejoin}.log"
    serve_log = work / f"serve-{os.path.basename(source)}-{rejoin}.log"
    # Embedded media drivers in a directory of this test's own (aeron.dir): the machine's shared default directory may
    # hold other programs' drivers, on whose leftovers a starting driver waits.
    java = [tools.java, f"-Daeron.dir={work / 'aeron'}", "-jar", tools.blit_jar, "replicate"]
    with open(serve_log, "w") as serve_out:
        serve = subprocess.Popen(java + ["serve", "--dir", str(source), "--control", control, "--secret-file", secret],
                                 stdout=serve_out, stderr=subprocess.STDOUT)
    try:
        with open(log, "w") as out:
            follow = subprocess.Popen(java + ["follow", "--dir", str(replica), "--source", control, "--endpoint",
                                              endpoint, "--secret-file", secret] + (["--rejoin"] if rejoin else []),
                                      stdout=out, stderr=subprocess.STDOUT)
            try:
                wait_for(log, f"end {last_index + 1},", follow, also=serve_log)
            finally:
                stop(follow)
    finally:
        stop(serve)
    return open(log).read()


def make_quarantine(tools, work):
    """Returns (the old primary after its rejoin, its quarantine directory)."""
    old, promoted = work / "old", work / "promoted"
    tools.produce(old, 100, segment_size="12k")
    tools.run(tools.blit_jar, "replicate", "keygen", "--secret-file", work / "secret")
    serve_and_follow(tools, work, old, promoted, 99, rejoin=False)
    tools.produce(old, 30)
    tools.run(tools.blit_jar, "replicate", "promote", "--dir", promoted)
    tools.produce(promoted, 20)
    log = serve_and_follow(tools, work, promoted, old, 119, rejoin=True)
    assert "quarantined 30 records (index 100 to 129)" in log, log
    quarantines = [d for d in os.listdir(old / "quarantine") if d.startswith("from-100-")]
    assert len(quarantines) == 1, quarantines
    return old, old / "quarantine" / quarantines[0]
