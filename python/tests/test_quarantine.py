"""A quarantine (format.md "Quarantine") and the old primary that set it aside, both written by the Java tools'
replication: the Python and C readers print what ``blit dump`` prints."""

import pytest

import blit
from blit.__main__ import main as python_main

from test_c_reader import c_dump


@pytest.mark.parametrize("name", ["quarantine", "rejoined"])
def test_quarantine_and_rejoined_primary_read_as_dump_prints_them(name, quarantined, tools, capsys):
    expected, java_code = tools.dump_once(quarantined[name])
    assert java_code == 0
    assert python_main(["dump", str(quarantined[name])]) == 0
    assert capsys.readouterr().out.splitlines() == expected
    lines, code, err = c_dump(quarantined[name])
    assert code == 0, err
    assert lines == expected


def test_quarantine_holds_the_old_primarys_tail(quarantined):
    with blit.open(quarantined["quarantine"]) as q:
        assert q.first_index == 100
        assert [r.fields["securityId"] for r in q] == list(range(100, 130))
    with blit.open(quarantined["rejoined"]) as q:
        assert q.to_numpy("MarketData")["index"].tolist() == list(range(120))
