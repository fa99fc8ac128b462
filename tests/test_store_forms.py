"""The stored forms of a chunk: the dense histograms read back to exactly the long table, at
any seat count and count size, with the bins no match reached left out and put back; the
narrow matches file reads back to the kernel's int32 columns at every range; runs stored
before (long histograms, parquet matches) still load, sum and resume, unless their columns
differ from what this version writes; a chunk whose file is cut short does not count."""

import json

import numpy as np
import pandas as pd
import pytest

from sim.kit.records import BatchRecords, Layout
from sim.paintline.batch import load_matchup
from sim.paintline.game import GAME
from sim.runner.run import histogram_bins, simulate
from sim.store import hists as histstore
from sim.store import matches as matchstore
from sim.store.runs import (
    LONG_FORM,
    StoreError,
    chunk_tables,
    chunk_totals,
    create_run,
    read_table,
    totals,
    write_chunk,
)

from .conftest import FOLDER


def by_hand(first_match, hists):
    """The long table as its definition says: a row per nonzero (match, measure, seat,
    value) cell, in that order."""
    rows = []
    names = list(hists)
    n = next(iter(hists.values())).shape[0]
    for match in range(n):
        for k, name in enumerate(names):
            counts = hists[name]
            for seat in range(counts.shape[1]):
                for value in range(counts.shape[2]):
                    if counts[match, seat, value]:
                        rows.append((first_match + match, seat, k, value,
                                     counts[match, seat, value]))
    cols = list(zip(*rows, strict=True)) if rows else [[]] * 5
    return pd.DataFrame({
        "match_index": np.array(cols[0], dtype=np.int64),
        "seat": np.array(cols[1], dtype=np.int8),
        "measure": pd.Categorical.from_codes(np.array(cols[2], dtype=np.int8),
                                             categories=names),
        "value": np.array(cols[3], dtype=np.int16),
        "count": np.array(cols[4], dtype=np.int32),
    })


def random_hists(rng, n, seats, top):
    """Sparse random counts, one measure reaching `top` in its last ("or more") bin."""
    a = rng.integers(0, 4, (n, seats, 7)).astype(np.int32) * (rng.random((n, seats, 7)) < 0.3)
    b = np.zeros((n, seats, 3), dtype=np.int32)
    b[n // 2, seats - 1, 2] = top  # the last bin of the last seat
    b[0, 0, 0] = 1
    return {"rally": a, "steps": b, "empty": np.zeros((n, seats, 4), dtype=np.int32)}


@pytest.mark.parametrize("seats,top", [(2, 9), (2, 255), (3, 256), (1, 65_535),
                                       (2, 65_536), (4, 2**31 - 1)])
def test_dense_form_reads_back_to_the_long_table(tmp_path, seats, top):
    rng = np.random.default_rng(seats * 7 + top)
    hists = random_hists(rng, 40, seats, top)
    table = histstore.dense_table(1000, 40, hists)
    histstore.write_dense(tmp_path / histstore.DENSE, table)
    first, n, back = histstore.read_dense(tmp_path)
    assert (first, n) == (1000, 40)
    assert list(back) == list(hists)
    for name in hists:
        assert back[name].dtype == np.int32
        assert np.array_equal(back[name], hists[name])
    expected = by_hand(1000, hists)
    assert expected["count"].max() == top
    pd.testing.assert_frame_equal(histstore.read_long(tmp_path), expected, check_exact=True)
    pd.testing.assert_frame_equal(histstore.long_table(1000, 40, hists), expected,
                                  check_exact=True)
    summed = histstore.summed(tmp_path, {"rally": 7, "steps": 3, "gone": 5})
    assert summed["steps"][seats - 1, 2] == top
    assert np.array_equal(summed["rally"], hists["rally"].sum(axis=0))
    assert summed["gone"].shape == (seats, 5) and not summed["gone"].any()


@pytest.mark.parametrize("top,dtype", [(0, "u1"), (255, "u1"), (256, "<u2"),
                                       (65_535, "<u2"), (65_536, "<i4"), (-1, "<i4")])
def test_counts_are_stored_in_the_smallest_exact_type(top, dtype):
    counts = np.zeros((3, 2, 4), dtype=np.int32)
    counts[2, 1, 3] = top
    assert histstore.smallest_dtype(counts) == np.dtype(dtype)


def test_empty_top_bins_are_left_out_and_put_back_and_the_sums_kept(tmp_path):
    counts = np.zeros((6, 2, 10), dtype=np.int32)
    counts[:, 0, 0] = [1, 2, 3, 4, 5, 6]
    counts[4, 1, 2] = 7  # bins 3..9 empty in every match of the chunk
    hists = {"rally": counts, "none": np.zeros((6, 2, 4), dtype=np.int32)}
    table = histstore.dense_table(0, 6, hists)
    assert table.column("rally").type.byte_width == 2 * 3  # seats x 3 bins, one byte each
    histstore.write_dense(tmp_path / histstore.DENSE, table)
    back = histstore.read_dense(tmp_path)[2]
    assert back["rally"].shape == (6, 2, 10) and np.array_equal(back["rally"], counts)
    assert back["none"].shape == (6, 2, 4) and not back["none"].any()
    summed = histstore.summed(tmp_path, {"rally": 10, "none": 4})
    assert summed["rally"][0, 0] == 21 and summed["rally"][1, 2] == 7
    assert summed["rally"].sum() == 28 and summed["none"].shape == (2, 4)


def test_a_dense_file_without_sums_is_summed_from_its_counts(tmp_path):
    """Dense chunks stored before the sums went into the metadata."""
    rng = np.random.default_rng(3)
    hists = {"rally": rng.integers(1, 5, (9, 2, 4)).astype(np.int32)}
    table = histstore.dense_table(0, 9, hists)
    meta = json.loads(table.schema.metadata[histstore.META])
    for spec in meta["measures"].values():
        del spec["sums"], spec["bins"]
    table = table.replace_schema_metadata({histstore.META: json.dumps(meta).encode()})
    histstore.write_dense(tmp_path / histstore.DENSE, table)
    summed = histstore.summed(tmp_path, {"rally": 4})
    by_loop = [[sum(int(hists["rally"][m, s, v]) for m in range(9)) for v in range(4)]
               for s in range(2)]
    assert summed["rally"].tolist() == by_loop


@pytest.mark.parametrize("lo,hi,stored", [(0, 1, "int8"), (-128, 127, "int8"),
                                          (-129, 0, "int16"), (0, 128, "int16"),
                                          (-32_768, 32_767, "int16"), (0, 32_768, "int32"),
                                          (-2**31, 2**31 - 1, "int32")])
def test_match_columns_are_stored_narrow_and_read_back_as_int32(tmp_path, lo, hi, stored):
    layout = Layout(("winner", "points", "flat"), {}, ("matches_in_deck",))
    rec = BatchRecords.allocate(layout, 5, 1, first_match=70)
    rec.matches[:, 1] = [lo, hi, 0, lo, hi]
    rec.matches[:, 2] = -1
    table = matchstore.narrow_table(70, rec.matches, layout.match_columns)
    assert str(table.column("points").type) == stored
    assert str(table.column("flat").type) == "int8"
    matchstore.write(tmp_path / matchstore.FILE, table)
    assert matchstore.rows(tmp_path) == 5
    back = matchstore.read_frame(tmp_path)
    pd.testing.assert_frame_equal(back, rec.matches_frame(), check_exact=True)
    assert back["points"].tolist() == [lo, hi, 0, lo, hi]
    part = matchstore.read_frame(tmp_path, ["points", "match_index"])
    assert part.match_index.tolist() == [70, 71, 72, 73, 74]


def test_a_negative_count_survives_the_dense_form(tmp_path):
    hists = {"x": np.array([[[0, -3], [2, 0]]], dtype=np.int32)}
    histstore.write_dense(tmp_path / histstore.DENSE, histstore.dense_table(5, 1, hists))
    assert np.array_equal(histstore.read_dense(tmp_path)[2]["x"], hists["x"])


LAYOUT = Layout(("winner", "points"), {"rally": 5, "steps": 3}, ("matches_in_deck", "played"))


def small_records(first, n, seed):
    rec = BatchRecords.allocate(LAYOUT, n, 2, first_match=first)
    rng = np.random.default_rng(seed)
    rec.matches[:, 0] = rng.integers(0, 2, n)
    rec.matches[:, 1] = rng.integers(10, 30, n)
    for counts in rec.hists.values():
        counts[...] = rng.integers(0, 3, counts.shape) * (rng.random(counts.shape) < 0.4)
    rec.hists["rally"][-1, 1, 4] = 300  # "5 or more", past a byte
    rec.card_stats[0, 0] = (n, 4)
    rec.card_stats[1, 1] = (n, 6)
    return rec


def old_chunk(run, index, rec, card_ids):
    """A chunk written as runs were before the dense form: three parquet files from pandas."""
    folder = run.chunk_path(index)
    folder.mkdir(parents=True)
    rec.matches_frame().to_parquet(folder / "matches.parquet", index=False)
    by_hand(rec.first_match, rec.hists).to_parquet(folder / "histograms.parquet", index=False)
    cards = pd.DataFrame({"seat": np.array([0, 1], dtype=np.int8), "card": list(card_ids),
                          "matches_in_deck": rec.card_stats[[0, 1], [0, 1], 0],
                          "played": rec.card_stats[[0, 1], [0, 1], 1]})
    cards.to_parquet(folder / "cards.parquet", index=False)


def test_old_long_runs_and_new_dense_runs_read_alike(tmp_path):
    ids = ("c1", "c2")
    manifest = {"schema": {"histograms": {"rally": {"bins": 5}, "steps": {"bins": 3}}}}
    old = create_run(tmp_path, "old", manifest)
    new = create_run(tmp_path, "new", manifest)
    recs = [small_records(0, 30, 1), small_records(30, 25, 2)]
    for k, rec in enumerate(recs):
        old_chunk(old, k, rec, ids)
        write_chunk(new, k, chunk_tables(rec, ids))
        assert new.verify_chunk(k, len(rec)) and old.verify_chunk(k, len(rec))
    assert (new.chunk_path(0) / histstore.DENSE).is_file()
    assert not (new.chunk_path(0) / histstore.LONG).exists()
    for name in ("matches", "histograms", "cards"):
        a, b = read_table(old.path, name), read_table(new.path, name)
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    hist = read_table(new.path, "histograms")
    assert len(hist) == sum(int((r.hists[m] != 0).sum()) for r in recs for m in r.hists)
    assert hist["count"].max() == 300
    cards = read_table(new.path, "cards")
    assert cards.played.tolist() == [8, 12]
    bins = histogram_bins(manifest)
    a, b = totals(old.path, bins), totals(new.path, bins)
    assert (a.n, a.wins, a.sums) == (b.n, b.wins, b.sums) == (a.n, a.wins, a.sums)
    for name in bins:
        expected = sum(r.hists[name].sum(axis=0) for r in recs)
        assert np.array_equal(a.hists[name], expected)
        assert np.array_equal(b.hists[name], expected)


def test_sums_made_while_writing_equal_the_sums_read_back(tmp_path):
    run = create_run(tmp_path, "r", {})
    bins = {"rally": 5, "steps": 3, "absent": 2}
    parts = {}
    for k, rec in enumerate([small_records(0, 30, 4), small_records(30, 20, 5)]):
        tables = chunk_tables(rec, ("c1", "c2"))
        write_chunk(run, k, tables)
        parts[k] = chunk_totals(tables, bins)
    read, made, half = (totals(run.path, bins), totals(run.path, bins, parts),
                        totals(run.path, bins, {1: parts[1]}))
    for t in (made, half):
        assert (t.n, t.wins, t.draws, t.sums, t.squares) == (
            read.n, read.wins, read.draws, read.sums, read.squares)
        assert all(np.array_equal(t.hists[k], read.hists[k]) for k in bins)
        assert t.ratio("points")[0] == read.ratio("points")[0]
    assert read.n == 50 and read.hists["rally"][1, 4] >= 600
    assert chunk_totals(chunk_tables(small_records(0, 5, 1), ("c1", "c2"), LONG_FORM),
                        bins) is None


def test_a_cut_dense_or_matches_file_makes_the_chunk_incomplete(tmp_path):
    run = create_run(tmp_path, "r", {})
    rec = small_records(0, 40, 3)
    write_chunk(run, 0, chunk_tables(rec, ("c1", "c2")))
    assert run.verify_chunk(0, 40)
    assert not run.verify_chunk(0, 41)
    for name in (histstore.DENSE, matchstore.FILE):
        path = run.chunk_path(0) / name
        whole = path.read_bytes()
        path.write_bytes(whole[:-40])
        assert not run.verify_chunk(0, 40)
        path.write_bytes(whole)
        assert run.verify_chunk(0, 40)


def test_an_old_long_run_resumes_in_its_own_form(tmp_path):
    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "random", "greedy")
    simulate(GAME, m, 1200, 4, results=tmp_path, run_id="fresh", chunk_size=400,
             backend="serial")
    res = simulate(GAME, m, 1200, 4, results=tmp_path, run_id="old", chunk_size=400,
                   backend="serial")
    run = res.run
    # Made old: no histogram form in the manifest, chunk 0 long, chunk 2 missing.
    manifest = json.loads(run.manifest_path.read_text())
    assert manifest.pop("histogram_form") == "histogram_counts"
    manifest["status"] = "interrupted"
    run.write_manifest(manifest)
    long0 = read_table(run.path, "histograms", chunks=[0])
    (run.chunk_path(0) / histstore.DENSE).unlink()
    long0.to_parquet(run.chunk_path(0) / histstore.LONG, index=False)
    matches0 = read_table(run.path, "matches", chunks=[0])
    (run.chunk_path(0) / matchstore.FILE).unlink()
    matches0.to_parquet(run.chunk_path(0) / matchstore.OLD, index=False)
    run.remove_chunk(2)
    simulate(None, None, 0, 0, results=tmp_path, resume="old", backend="serial")
    assert (run.chunk_path(2) / histstore.LONG).is_file()
    assert not (run.chunk_path(2) / histstore.DENSE).exists()
    assert (run.chunk_path(1) / histstore.DENSE).is_file()
    for name in ("matches", "histograms", "cards"):
        pd.testing.assert_frame_equal(read_table(run.path, name),
                                      read_table(tmp_path / "fresh", name), check_exact=True)
    assert LONG_FORM == "histograms"


def test_a_run_recorded_with_other_columns_is_not_resumed(tmp_path):
    """A run whose manifest names other match columns or histogram censoring than this
    version writes (an Encounter run from before the rounds column) is refused with a clear
    error: new chunks beside old would be two layouts under one name."""
    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "random", "greedy")
    run = simulate(GAME, m, 800, 4, results=tmp_path, run_id="old", chunk_size=400,
                   backend="serial").run
    manifest = json.loads(run.manifest_path.read_text())
    manifest["status"] = "interrupted"
    manifest["git_commit"] = "0123abc"
    cols = manifest["schema"]["match_columns"]
    manifest["schema"]["match_columns"] = {k: cols[k] for k in list(cols)[:-1]}
    run.write_manifest(manifest)
    run.remove_chunk(1)
    with pytest.raises(StoreError, match=r"0123abc.*records differ.*start a new run"):
        simulate(None, None, 0, 0, results=tmp_path, resume="old", backend="serial")
    assert not run.chunk_path(1).exists()
    # Reworded meanings are not a different layout.
    manifest["schema"]["match_columns"] = {k: "reworded" for k in cols}
    run.write_manifest(manifest)
    simulate(None, None, 0, 0, results=tmp_path, resume="old", backend="serial")
    assert run.chunk_path(1).exists()
