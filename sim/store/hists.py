"""The two stored forms of a chunk's per-match histograms: dense (one fixed-width column per
measure holding each match's (seat, value) counts in the smallest exact integer type) and
the long table analysis reads (one row per nonzero (match, measure, seat, value) cell)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sim.kit.records import DEFAULT_SEATS

DENSE = "histogram_counts.arrow"  # the dense form's file in a chunk folder (Arrow IPC)
LONG = "histograms.parquet"  # the long form's file (runs stored before the dense form)
META = b"cardlab.histograms"  # schema metadata: first match, each measure's dtype and shape
BLOCK = 16  # matches summed side by side (chunk_sums)


def smallest_dtype(counts: np.ndarray) -> np.dtype:
    """The narrowest little-endian integer type that holds every (int32) count exactly."""
    if counts.size == 0:
        return np.dtype("u1")
    # One pass: seen unsigned, a negative count is above 2**31 and keeps int32.
    hi = int(counts.astype(np.int32, copy=False).view(np.uint32).max())
    for t in ("u1", "<u2"):
        if hi <= np.iinfo(t).max:
            return np.dtype(t)
    return np.dtype("<i4")


def dense_table(first_match: int, n: int, hists: dict[str, np.ndarray]):
    """A pyarrow table of one column per measure: row m holds match first_match + m's
    (seats, bins) counts as raw bytes of the type `smallest_dtype` picks for the chunk.
    Bins past the last one any match of the chunk counted in are left out (the
    metadata keeps the declared count, and reading pads them back), and each measure's
    counts summed over the chunk go into the metadata, so that a run's totals need not
    decode the counts."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow as pa

    columns, meta = {}, {"first_match": int(first_match), "n": n, "measures": {}}
    for name, counts in hists.items():
        dtype = smallest_dtype(counts)
        sums = chunk_sums(counts, dtype)
        bins = counts.shape[2]
        if dtype.kind == "u":  # no count below zero: a bin whose sum is zero is empty
            used = np.flatnonzero(sums.any(axis=0))
            counts = counts[:, :, :used[-1] + 1 if len(used) else 0]
        flat = np.ascontiguousarray(counts, dtype=dtype).reshape(n, -1)
        width = max(flat.shape[1] * dtype.itemsize, 1)  # parquet has no zero-width binary
        if flat.shape[1] == 0:
            flat = np.zeros((n, 1), dtype=np.uint8)
        columns[name] = pa.FixedSizeBinaryArray.from_buffers(
            pa.binary(width), n, [None, pa.py_buffer(flat)])
        meta["measures"][name] = {"dtype": dtype.str, "shape": list(counts.shape[1:]),
                                  "bins": bins, "sums": sums.tolist()}
    table = pa.table(columns) if columns else pa.table({"none": pa.nulls(n, pa.binary(1))})
    return table.replace_schema_metadata({META: json.dumps(meta).encode()})


def chunk_sums(counts: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """(seats, bins) counts summed over a chunk's matches, exactly, as int64. Counts that
    fit two unsigned bytes are summed in int32 while no sum can pass 2**31, over rows of
    BLOCK matches side by side (several times faster than widening every cell to int64
    first: the inner loop runs over a long row)."""
    n, seats, bins = counts.shape
    flat = counts.reshape(n, seats * bins)
    if dtype.kind != "u" or n * np.iinfo(dtype).max >= 2**31:
        return flat.sum(axis=0, dtype=np.int64).reshape(seats, bins)
    flat = flat.astype(np.int32, copy=False)
    whole = n - n % BLOCK
    rows = np.einsum("ij->j", flat[:whole].reshape(whole // BLOCK, BLOCK * seats * bins))
    total = rows.reshape(BLOCK, seats * bins).sum(axis=0, dtype=np.int64)
    total += flat[whole:].sum(axis=0, dtype=np.int64)
    return total.reshape(seats, bins)


def dense_arrays(table, widen: bool = True) -> tuple[int, int, dict[str, np.ndarray]]:
    """First match, match count and each measure's (n, seats, bins) counts (int32, as the
    kernel wrote them, or as stored when not `widen`) of a table `dense_table` made; bins
    left out as empty are put back."""
    meta = json.loads(table.schema.metadata[META])
    n = meta["n"]
    out = {}
    for name, spec in meta["measures"].items():
        dtype, shape = np.dtype(spec["dtype"]), tuple(spec["shape"])
        column = table.column(name).combine_chunks()
        raw = np.frombuffer(column.buffers()[1], dtype=np.uint8)
        width = column.type.byte_width
        raw = raw[column.offset * width:(column.offset + n) * width]
        cells = int(np.prod(shape))
        counts = raw.view(dtype)[: n * cells] if cells else np.zeros(0, dtype)
        counts = counts.reshape(n, *shape)
        bins = spec.get("bins", shape[1])
        if bins > shape[1]:
            full = np.zeros((n, shape[0], bins), dtype=np.int32 if widen else dtype)
            full[:, :, :shape[1]] = counts
            out[name] = full
        else:
            out[name] = counts.astype(np.int32) if widen else counts
    return meta["first_match"], n, out


def write_dense(path: Path, table) -> None:
    """An Arrow IPC file: the raw bytes need none of parquet's encoding (a third of its
    time), and lz4 takes the mostly-zero counts to about a quarter."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.feather as feather

    feather.write_feather(table, path, compression="lz4")


def dense_rows(folder: Path) -> int:
    """The matches a chunk's dense file holds, from its footer (raises when it is not
    whole)."""
    return json.loads(read_dense_schema(folder).metadata[META])["n"]


def read_dense_table(folder: Path):
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.feather as feather

    return feather.read_table(Path(folder) / DENSE, memory_map=False)


def read_dense_schema(folder: Path):
    """A dense file's schema alone, from its footer (the counts are not read)."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow as pa

    with pa.ipc.open_file(Path(folder) / DENSE) as reader:
        return reader.schema


def read_dense(folder: Path) -> tuple[int, int, dict[str, np.ndarray]]:
    return dense_arrays(read_dense_table(folder))


def long_table(first_match: int, n: int, hists: dict[str, np.ndarray]):
    """The long table: a row per nonzero cell, match-major, then measure, seat and value in
    their declared order (match_index int64, seat int8, measure categorical, value int16,
    count int32), the same table whatever the chunking."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pandas as pd

    index = np.arange(first_match, first_match + n)
    measures = list(hists)
    # Every measure's (seat, value) counts side by side, one row per match: the nonzero
    # cells of that matrix come in the table's order with no sort.
    blocks = [c.reshape(n, c.shape[1] * c.shape[2]) for c in hists.values()] or [
        np.zeros((n, 0), np.int32)]
    wide = np.hstack(blocks) if len(blocks) > 1 else blocks[0]
    col_measure = np.concatenate([np.full(b.shape[1], k, dtype=np.int8)
                                  for k, b in enumerate(blocks)])
    col_seat = np.concatenate([np.repeat(np.arange(c.shape[1], dtype=np.int8), c.shape[2])
                               for c in hists.values()] or [np.zeros(0, np.int8)])
    col_value = np.concatenate([np.tile(np.arange(c.shape[2], dtype=np.int16), c.shape[1])
                                for c in hists.values()] or [np.zeros(0, np.int16)])
    match, col = np.nonzero(wide)
    return pd.DataFrame({
        "match_index": index[match],
        "seat": col_seat[col],
        "measure": pd.Categorical.from_codes(col_measure[col], categories=measures or ["none"]),
        "value": col_value[col],
        "count": wide[match, col].astype(np.int32),
    })


def read_long(folder: Path):
    """A chunk's long table, from whichever form the chunk was stored in."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pandas as pd

    folder = Path(folder)
    if (folder / DENSE).is_file():
        return long_table(*read_dense(folder))
    return pd.read_parquet(folder / LONG)


def summed(folder: Path | None, bins: dict[str, int], table=None) -> dict[str, np.ndarray]:
    """A chunk's (seats, bins) counts summed over its matches (int64), for the measures in
    `bins`, from its folder or from its dense `table` in memory; a measure the chunk lacks
    is zeros."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.parquet as pq

    if table is not None or (Path(folder) / DENSE).is_file():
        schema = table.schema if table is not None else read_dense_schema(folder)
        measures = json.loads(schema.metadata[META])["measures"]
        if all("sums" in spec for spec in measures.values()):
            hists = {k: np.array(spec["sums"], dtype=np.int64).reshape(spec["shape"][0],
                                                                   spec["bins"])
                     for k, spec in measures.items() if k in bins}
        else:  # a chunk stored before the sums were kept
            if table is None:
                table = read_dense_table(folder)
            _, _, arrays = dense_arrays(table, widen=False)  # summed in int64 as stored
            hists = {k: v.sum(axis=0, dtype=np.int64) for k, v in arrays.items() if k in bins}
        seats = next(iter(hists.values())).shape[0] if hists else DEFAULT_SEATS
    else:
        h = pq.read_table(Path(folder) / LONG)
        measure = h.column("measure").combine_chunks()
        codes = measure.indices.to_numpy(zero_copy_only=False)
        names = measure.dictionary.to_pylist()
        seat, value, count = (h.column(c).to_numpy() for c in ("seat", "value", "count"))
        seats = DEFAULT_SEATS  # the long form was only ever written for two-seat games
        hists = {}
        for code, name in enumerate(names):
            if name not in bins:
                continue
            pick = codes == code
            flat = np.bincount(seat[pick].astype(np.int64) * bins[name] + value[pick],
                               weights=count[pick], minlength=seats * bins[name])
            hists[name] = flat.astype(np.int64).reshape(seats, bins[name])
    for name, n in bins.items():
        hists.setdefault(name, np.zeros((seats, n), dtype=np.int64))
    return hists
