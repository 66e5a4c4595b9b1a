"""Every record the Python reader returns is the line ``blit dump`` prints for it, on the committed samples and on
queues the Java tools write in this run."""

import pytest

import blit
from blit.__main__ import main as python_main

from conftest import GENERATED, SAMPLES, SAMPLE_DIRS


def python_dump(directory, capsys):
    code = python_main(["dump", str(directory)])
    return capsys.readouterr().out.splitlines(), code


@pytest.mark.parametrize("sample", SAMPLE_DIRS)
def test_sample_reads_as_dump_prints_it(sample, tools, capsys):
    expected, java_code = tools.dump_once(SAMPLES / sample)
    lines, code = python_dump(SAMPLES / sample, capsys)
    assert java_code == 0 and code == 0
    assert len(lines) > 10
    assert lines == expected


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_queue_reads_as_dump_prints_it(name, generated, tools, capsys):
    expected, java_code = tools.dump_once(generated[name])
    lines, code = python_dump(generated[name], capsys)
    assert java_code == 0 and code == 0
    assert len([line for line in lines if line.startswith("index=")]) == GENERATED[name]["count"]
    assert lines == expected


def test_several_files_are_followed_across_padding_and_file_ends(generated):
    with blit.open(generated["several-files"]) as q:
        files = q.layouts()
        indices = [r.index for r in q]
    assert len(files) > 10
    assert indices == list(range(500))


def test_header_modes_are_recorded_in_the_layouts(generated):
    with blit.open(generated["compact-headers"]) as compact, blit.open(generated["single"]) as default:
        assert compact.types["MarketData"][1].compact_headers
        assert not default.types["MarketData"][1].compact_headers
        assert compact.types["MarketData"][1].start != default.types["MarketData"][1].start
    with blit.open(generated["no-compressed-class-pointers"]) as q:
        assert not q.types["BookUpdate"][1].compressed_class_pointers


def test_types_list_the_stored_layouts(generated):
    with blit.open(generated["mixed"]) as q:
        assert sorted((type_id, name) for name, (type_id, _) in q.types.items()) == [(1, "MarketData"),
                                                                                      (2, "BookUpdate")]
        layout = q.types["MarketData"][1]
        assert layout.class_name == "io.blit.tools.messages.MarketData"
        assert [f.name for f in layout.fields][:2] == ["securityId", "time"] and layout.length == 144
