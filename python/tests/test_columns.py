"""to_numpy, chunks (zero-copy views) and to_pandas hold what iteration (and so dump) returns."""

import numpy as np

import blit

from conftest import SAMPLES


def assert_columns_equal_records(q, type_name):
    table = q.to_numpy(type_name)
    records = [r for r in q if r.type == type_name]
    assert len(table) == len(records) > 0
    assert table["index"].tolist() == [r.index for r in records]
    for name in records[0].fields:
        assert table[name].tolist() == [r.fields[name] for r in records], name
    return table, records


def test_single_type_columns(generated):
    with blit.open(generated["several-files"]) as q:
        table, records = assert_columns_equal_records(q, "MarketData")
        assert table["appended"].dtype == np.dtype("datetime64[ns]")
        assert table["appended"].astype(np.int64).tolist() == [r.appended for r in records]
        assert table["securityId"].tolist() == list(range(500))
        assert np.array_equal(table["askPrice3"], np.arange(500) + 15 / 16.0)


def test_mixed_columns_per_type(generated):
    with blit.open(generated["mixed"]) as q:
        market, _ = assert_columns_equal_records(q, "MarketData")
        book, _ = assert_columns_equal_records(q, "BookUpdate")
        assert sorted(market["index"].tolist() + book["index"].tolist()) == list(range(301))
        assert book["index"].tolist() == [i for i in range(301) if i % 3 == 2]


def test_range_selects_indices(generated):
    with blit.open(generated["several-files"]) as q:
        assert q.to_numpy("MarketData", start=37, stop=412)["index"].tolist() == list(range(37, 412))
        assert [r.index for r in q.records(start=250, stop=260)] == list(range(250, 260))


def test_chunks_are_views_of_the_mapped_files(generated):
    with blit.open(generated["several-files"]) as q:
        chunks = list(q.chunks("MarketData"))
        assert len(chunks) == len(q.layouts())  # one evenly spaced run per file
        for chunk in chunks:
            assert not chunk.records.flags.owndata and not chunk.records.flags.writeable
            assert chunk.records.strides == (160,)
            assert chunk.records["securityId"].tolist() == chunk.index.tolist()
        del chunks


def test_format_1_columns_have_no_time(tools):
    with blit.open(SAMPLES / "format-v1/typed") as q:
        table, records = assert_columns_equal_records(q, "SampleV1Message")
        assert np.isnat(table["appended"]).all()
        assert "SampleV1Message.index" in table.dtype.names  # a field named index is qualified by its class


def test_to_pandas(generated):
    with blit.open(generated["book"]) as q:
        frame = q.to_pandas("BookUpdate")
        assert list(frame["index"]) == list(range(120)) and list(frame["sequence"]) == list(range(120))
