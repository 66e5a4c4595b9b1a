"""follow() yields records as a Java producer commits them; consumers' positions read as ``blit consumers`` prints."""

import subprocess

import blit

from conftest import SAMPLES
from queues import take


def test_follow_yields_records_as_they_are_committed(tools, tmp_path):
    q_dir = tmp_path / "q"
    tools.produce(q_dir, 1)  # the queue exists before the follower opens it
    producer = subprocess.Popen([tools.java, "-jar", tools.demo_jar, "produce", "--dir", str(q_dir), "--count", "400",
                                 "--rate", "2000", "--segment-size", "12k"], stdout=subprocess.DEVNULL)
    try:
        with blit.open(q_dir) as q:
            seen = [r.fields["securityId"] for r in take(q.follow(), 401)]
    finally:
        try:
            code = producer.wait(60)  # it ends by itself after its 400 messages: about 0.2 s after its JVM starts
        except subprocess.TimeoutExpired:
            producer.kill()
            raise
    assert code == 0
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
