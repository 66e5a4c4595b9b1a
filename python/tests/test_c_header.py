"""``blit layout --c-header``: the header compiles with cc -std=c11 -Wall -Werror (its _Static_asserts hold), and a
program reading records through its structs reads the values ``blit dump`` prints."""

import pathlib
import subprocess

import blit

from conftest import SAMPLES
from queues import segments

HERE = pathlib.Path(__file__).parent


def compile_and_run(header, tmp_path, queue_file):
    (tmp_path / "blit_layouts.h").write_text(header)
    binary = tmp_path / "c_header_check"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-I", str(tmp_path), "-o", str(binary),
                    str(HERE / "c_header_check.c")], check=True, capture_output=True, timeout=120)
    result = subprocess.run([str(binary), queue_file], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.returncode
    return result.stdout.splitlines()


def expected_lines(queue_dir):
    with blit.open(queue_dir) as q:
        stop = q.layouts()[1][1]  # the second file's first index: the records of the first file
        out = []
        for r in q.records(stop=stop):
            if r.type == "MarketData":
                out.append(f"index={r.index} securityId={r.fields['securityId']} askPrice3={r.fields['askPrice3']!r}")
            else:
                out.append(f"index={r.index} sequence={r.fields['sequence']} askPrice4={r.fields['askPrice4']!r}")
    return out


def normalise(lines):
    """%.17g and repr print the same double differently: compare the values."""
    return [" ".join(p if not p.startswith("askPrice") else p.split("=")[0] + "=" + repr(float(p.split("=")[1]))
                     for p in line.split()) for line in lines]


def test_header_of_a_queues_stored_layouts_reads_its_records(generated, tools, tmp_path):
    q_dir = generated["mixed-several-files"]
    header = tools.run(tools.blit_jar, "layout", "--c-header", "--dir", q_dir).stdout
    assert "_Static_assert(offsetof(MarketData, askPrice3) == 136" in header
    assert "_Static_assert(sizeof(BookUpdate) == 192" in header
    first = segments(q_dir)[0]
    lines = compile_and_run(header, tmp_path, first)
    assert len(lines) > 20
    assert normalise(lines) == expected_lines(q_dir)
    # the values dump prints for the same records
    dumped = {line.split()[0]: line for line in tools.dump_once(q_dir)[0] if line.startswith("index=")}
    for line in lines[:30]:
        index, number = line.split()[:2]
        assert f" {number} " in dumped[index]


def test_header_of_classes_on_the_class_path(tools, tmp_path, generated):
    result = subprocess.run([tools.java, "-cp", f"{tools.blit_jar}:{tools.demo_jar}", "io.blit.cli.BlitCli", "layout",
                             "--c-header", "--class", "io.blit.tools.messages.MarketData",
                             "--class", "io.blit.tools.messages.BookUpdate"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    header = result.stdout.replace("/* Generated", "#define BLIT_MARKETDATA_TYPE_ID 1\n#define BLIT_BOOKUPDATE_TYPE_ID 2\n"
                                   "/* Generated", 1)
    first = segments(generated["mixed-several-files"])[0]
    assert normalise(compile_and_run(header, tmp_path, first)) == expected_lines(generated["mixed-several-files"])


def test_bad_input_is_one_line(tools, generated):
    raw = tools.run(tools.blit_jar, "layout", "--c-header", "--class", "java.lang.String", check=False)
    assert raw.returncode == 2 and raw.stderr.count("\n") == 1 and raw.stderr.startswith("error: --class java.lang.String")
    missing = tools.run(tools.blit_jar, "layout", "--dir", "/nonexistent/queue", check=False)
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")


def test_header_of_an_unaligned_block_is_packed_and_compiles(tools, tmp_path):
    header = tools.run(tools.blit_jar, "layout", "--c-header", "--dir", SAMPLES / "format-v1/typed").stdout
    assert "#pragma pack(push, 1)" in header  # block [12, 50): a long at payload offset 4
    (tmp_path / "v1.h").write_text(header)
    (tmp_path / "v1.c").write_text('#include "v1.h"\nint main(void) { return (int) offsetof(SampleV1Message, l); }\n')
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(tmp_path / "v1"), str(tmp_path / "v1.c")],
                   check=True, capture_output=True, timeout=120)
    assert subprocess.run([str(tmp_path / "v1")], timeout=60).returncode == 12  # SampleV1Message.l @24, start 12
