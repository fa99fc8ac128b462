"""The stored forms of a chunk's matches table: an Arrow IPC file of every match column in
the narrowest integer type that holds the chunk's values (lz4), and the parquet file runs
stored before it have; both read back as the int32 columns the kernel wrote."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

FILE = "matches.arrow"  # a chunk's matches (Arrow IPC, narrow columns, lz4)
OLD = "matches.parquet"  # the matches of chunks stored before the Arrow file
META = b"cardlab.matches"  # schema metadata: the first match and the match count
INDEX = "match_index"  # not stored: the first match and the row give it
NARROW = tuple(np.dtype(t) for t in ("i1", "<i2"))


def narrowest(lo: int, hi: int) -> np.dtype:
    """The narrowest integer type that holds every value from lo to hi (int32 at most: the
    kernel writes int32)."""
    for t in NARROW:
        if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max:
            return t
    return np.dtype("<i4")


def narrow_table(first_match: int, matches: np.ndarray, names: tuple[str, ...]):
    """A pyarrow table of a chunk's (n, columns) int32 matches array, each column in the
    narrowest type of its values; the match index is left to the metadata. The small
    types take lz4 from a quarter of the time parquet's encoder needs to about the same
    file size."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow as pa

    n = matches.shape[0]
    columns = np.ascontiguousarray(matches.T)  # one contiguous row per match column
    if n:
        lo, hi = columns.min(axis=1), columns.max(axis=1)
    data = {}
    for k, name in enumerate(names):
        dtype = narrowest(int(lo[k]), int(hi[k])) if n else NARROW[0]
        data[name] = pa.array(columns[k].astype(dtype, copy=False))
    meta = {"first_match": int(first_match), "n": n}
    return pa.table(data).replace_schema_metadata({META: json.dumps(meta).encode()})


def write(path: Path, table) -> None:
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.feather as feather

    feather.write_feather(table, path, compression="lz4")


def rows(folder: Path) -> int:
    """The matches a chunk holds, from the footer of whichever file it has (raises when
    the file is not whole)."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = Path(folder)
    if (folder / FILE).is_file():
        with pa.ipc.open_file(folder / FILE) as reader:
            return json.loads(reader.schema.metadata[META])["n"]
    return pq.read_metadata(folder / OLD).num_rows


def table_arrays(table, columns: list[str] | None = None,
                 widen: bool = True) -> dict[str, np.ndarray]:
    """The match index (int64) and the named match columns (int32, or as stored when not
    `widen`; None: all) of a table `narrow_table` made, in the stored order."""
    meta = json.loads(table.schema.metadata[META])
    out = {}
    if columns is None or INDEX in columns:
        out[INDEX] = np.arange(meta["first_match"], meta["first_match"] + meta["n"],
                               dtype=np.int64)
    for name in table.column_names:
        if columns is None or name in columns:
            values = table.column(name).to_numpy()
            out[name] = values.astype(np.int32) if widen else values
    return out


def read_arrays(folder: Path, columns: list[str] | None = None) -> dict[str, np.ndarray]:
    """A chunk's match index (int64) and match columns (int32), of either form."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    folder = Path(folder)
    if (folder / FILE).is_file():
        stored = None if columns is None else [c for c in columns if c != INDEX]
        return table_arrays(feather.read_table(folder / FILE, columns=stored,
                                               memory_map=False), columns)
    table = pq.read_table(folder / OLD, columns=columns)
    return {c: table.column(c).to_numpy() for c in table.column_names}


def read_frame(folder: Path, columns: list[str] | None = None):
    """A chunk's matches as the DataFrame analysis reads: match_index first, then the
    match columns in their declared order."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pandas as pd

    return pd.DataFrame(read_arrays(folder, columns))
