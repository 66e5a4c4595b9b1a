"""follow() yields records as a Java producer commits them; consumers' positions read as ``blit consumers`` prints."""

import subprocess
import threading

import blit

from conftest import SAMPLES


def test_follow_yields_records_as_they_are_committed(tools, tmp_path):
    q_dir = tmp_path / "q"
    tools.produce(q_dir, 1)  # the queue exists before the follower opens it
    producer = subprocess.Popen([tools.java, "-jar", tools.demo_jar, "produce", "--dir", str(q_dir), "--count", "400",
                                 "--rate", "2000", "--segment-size", "12k"], stdout=subprocess.DEVNULL)
    seen = []
    timer = threading.Timer(60, producer.kill)  # bounds a hang; the producer needs about 0.2 s plus its JVM start
    timer.start()
    try:
        with blit.open(q_dir) as q:
            for record in q.follow():
                seen.append(record.fields["securityId"])
                if len(seen) == 401:
                    break
    finally:
        timer.cancel()
        assert producer.wait(60) == 0
    assert seen == list(range(401))


def test_consumers_read_as_blit_consumers_prints_them(tools):
    for sample in ("format-v3/typed", "format-v4/typed"):
        with blit.open(SAMPLES / sample) as q:
            consumers = q.consumers()
        printed = tools.run(tools.blit_jar, "consumers", "--dir", SAMPLES / sample).stdout.split()
        assert [c.name for c in consumers] == ["audit"] == [printed[0]]
        assert consumers[0].committed == 59 == int(printed[printed.index("committed") + 1])


def test_no_positions_file_no_consumers(generated):
    with blit.open(generated["single"]) as q:
        assert q.consumers() == []
