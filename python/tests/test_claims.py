"""Claims: a dead writer's claim is stepped over after the grace, a live writer's claim stops a one-pass read; both
as ``blit dump`` does. The claims are made on copies of a Java-written queue, as a writer leaves them."""

import fcntl
import os
import subprocess
import sys

import blit
from blit.__main__ import main as python_main

from conftest import copy_queue
from test_c_reader import c_dump
from queues import read_only_unchanged, record_positions, segments, set_state, take

CLAIMED, ABANDONED = 1, 3


def test_dead_writers_claim_is_stepped_over_after_the_grace(generated, tools, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    first = segments(q_dir)[0]
    pos, _ = record_positions(first)[150]
    set_state(first, pos, CLAIMED)  # its writer (this copy's writers.blitw holds no lock) is dead
    expected, java_code = tools.dump(q_dir)
    assert "# index 150: abandoned by a writer that died" in expected and java_code == 0
    assert python_main(["dump", str(q_dir)]) == 0
    assert capsys.readouterr().out.splitlines() == expected
    with read_only_unchanged(q_dir), blit.open(q_dir, abandon_grace=0.2) as q:  # it probes, never marks
        reading = q.records()
        indices = [r.index for r in reading]
        assert reading.dead_claims == [150] and reading.stopped is None
        assert indices == [i for i in range(300) if i != 150]
        assert 150 not in q.to_numpy("MarketData")["index"] and len(q.to_numpy("MarketData")) == 299
        assert [r.index for r in take(q.follow(), 299)] == indices  # follow steps over it too, after the grace


def test_abandoned_records_are_gaps(generated, tools, tmp_path, capsys):
    q_dir = copy_queue(generated["mixed"], tmp_path / "q")
    first = segments(q_dir)[0]
    for k in (10, 11, 12):
        set_state(first, record_positions(first)[k][0], ABANDONED)
    expected, _ = tools.dump(q_dir)
    assert "# indices 10..12 abandoned" in expected
    python_main(["dump", str(q_dir)])
    assert capsys.readouterr().out.splitlines() == expected


def hold_writer_lock(directory, writer):
    """A process holding writer ``writer``'s exclusive lock in directory's writers.blitw, as a live writer does."""
    code = ("import fcntl,os,sys,time\n"
            "fd=os.open(sys.argv[1],os.O_RDWR)\n"
            "fcntl.lockf(fd,fcntl.LOCK_EX|fcntl.LOCK_NB,1,65536+int(sys.argv[2]))\n"
            "print('locked',flush=True)\n"
            "time.sleep(120)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, os.path.join(directory, "writers.blitw"), str(writer)],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def test_live_writers_claim_stops_the_read(generated, tools, tmp_path, capsys):
    q_dir = copy_queue(generated["single"], tmp_path / "q")
    first = segments(q_dir)[0]
    writer = set_state(first, record_positions(first)[200][0], CLAIMED)
    holder = hold_writer_lock(q_dir, writer)
    try:
        expected, java_code = tools.dump(q_dir)
        assert java_code == 1 and expected[-1].startswith(f"# stopped at index 200: claimed by live writer")
        with blit.open(q_dir, abandon_grace=0.2) as q:
            reading = q.records()
            assert [r.index for r in reading] == list(range(200))
            assert reading.stopped == blit.LiveClaim(200, writer)
            assert len(q.to_numpy("MarketData")) == 200
        assert python_main(["dump", str(q_dir)]) == 1
        lines = capsys.readouterr().out.splitlines()
        assert lines[:-1] == expected[:-1] and lines[-1] == f"# stopped at index 200: claimed by live writer {writer}"
        c_lines, c_code, _ = c_dump(q_dir)
        assert c_code == 1 and c_lines == lines
    finally:
        holder.kill()
        holder.wait()
