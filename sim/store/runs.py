"""The results store: results/<run-id>/ with a manifest and one folder of tables per chunk,
each written under a temporary name and renamed only when complete."""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.kit.records import DEFAULT_SEATS, BatchRecords, Totals
from sim.store import hists as histstore
from sim.store import matches as matchstore

MANIFEST = "manifest.json"
CHUNKS = "chunks"
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
TABLES = ("matches", "histograms", "cards")  # what read_table gives
# The forms of a chunk's histograms (the manifest's "histogram_form"; runs without one were
# stored long): the dense per-match counts, or the long table itself.
DENSE_FORM, LONG_FORM = "histogram_counts", "histograms"
FORMS = (DENSE_FORM, LONG_FORM)


class StoreError(Exception):
    """A run folder that cannot be used as asked."""


def check_run_id(run_id: str) -> str:
    """Run ids are plain names: letters, digits, '.', '_', '-'; nothing that leaves the folder."""
    if not SAFE_ID.match(run_id) or ".." in run_id:
        raise StoreError(f"run id {run_id!r} is not a safe name (letters, digits, . _ -)")
    return run_id


@dataclass(frozen=True)
class RunFolder:
    """One run's folder under the results directory."""

    root: Path
    run_id: str

    @property
    def path(self) -> Path:
        return self.root / self.run_id

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def chunk_path(self, index: int) -> Path:
        return self.path / CHUNKS / f"{index:06d}"

    def read_manifest(self) -> dict:
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(f"{self.path}: no run here (no {MANIFEST})") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise StoreError(f"{self.manifest_path}: unreadable manifest: {err}") from None

    def write_manifest(self, manifest: dict) -> None:
        """Replace the manifest atomically (temporary file, then rename)."""
        tmp = self.path / f".{MANIFEST}.tmp"
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.manifest_path)

    def complete_chunks(self) -> list[int]:
        folder = self.path / CHUNKS
        if not folder.is_dir():
            return []
        return sorted(int(p.name) for p in folder.iterdir() if p.is_dir() and p.name.isdigit())

    def verify_chunk(self, index: int, games: int) -> bool:
        """A chunk counts only if every table is there, readable, with the right rows."""
        # deferred: pandas and pyarrow load only when records are read or written
        import pyarrow.parquet as pq

        path = self.chunk_path(index)
        try:
            matches = matchstore.rows(path)
            pq.read_metadata(path / "cards.parquet")
            if (path / histstore.DENSE).is_file():
                rows = histstore.dense_rows(path)
            else:
                rows = games
                pq.read_metadata(path / histstore.LONG)
        except (OSError, ValueError, KeyError):
            return False
        return matches == games == rows

    def remove_chunk(self, index: int) -> None:
        shutil.rmtree(self.chunk_path(index), ignore_errors=True)

    def clean_temporaries(self) -> None:
        """Half-written chunks from an interrupted run."""
        folder = self.path / CHUNKS
        if folder.is_dir():
            for p in folder.iterdir():
                if p.name.startswith("."):
                    shutil.rmtree(p, ignore_errors=True)


def create_run(root: Path, run_id: str, manifest: dict) -> RunFolder:
    """A new, empty run folder with its manifest; refuses to reuse an existing id."""
    check_run_id(run_id)
    run = RunFolder(Path(root), run_id)
    try:
        Path(root).mkdir(parents=True, exist_ok=True)
        run.path.mkdir()
    except FileExistsError:
        raise StoreError(f"{run.path} exists already; pick another run id or resume it") from None
    except OSError as err:
        raise StoreError(f"cannot create {run.path}: {err.strerror}") from None
    (run.path / CHUNKS).mkdir()
    run.write_manifest(manifest)
    return run


def open_run(root: Path, run_id: str) -> RunFolder:
    check_run_id(run_id)
    run = RunFolder(Path(root), run_id)
    run.read_manifest()
    return run


def cards_table(rec: BatchRecords, card_ids: tuple[str, ...]):
    """A chunk's card statistics as a pyarrow table, a row per (seat, card) that was in a
    deck: seat (int8), card (string) and every statistic (int64)."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow as pa

    seats, n_cards = rec.card_stats.shape[:2]
    seat, card = np.meshgrid(np.arange(seats), np.arange(n_cards), indexing="ij")
    stats = rec.card_stats.reshape(seats * n_cards, -1)
    keep = stats[:, rec.layout.card_stats.index("matches_in_deck")] > 0
    data = {"seat": pa.array(seat.ravel()[keep].astype(np.int8)),
            "card": pa.array(np.array(card_ids, dtype=object)[card.ravel()[keep]],
                             type=pa.string())}
    for k, name in enumerate(rec.layout.card_stats):
        data[name] = pa.array(np.ascontiguousarray(stats[keep, k]))
    return pa.table(data)


def chunk_tables(rec: BatchRecords, card_ids: tuple[str, ...], form: str = DENSE_FORM):
    """The tables of one chunk: matches, the histograms (dense, or long as runs stored
    before the dense form have them), card statistics."""
    if form not in FORMS:
        raise StoreError(f"unknown histogram form {form!r}; one of {', '.join(FORMS)}")
    if form == DENSE_FORM:
        hists = {DENSE_FORM: histstore.dense_table(rec.first_match, len(rec), rec.hists)}
    else:
        hists = {LONG_FORM: histstore.long_table(rec.first_match, len(rec), rec.hists)}
    # The matches straight from the kernel's array, in narrow columns (`read_table` gives
    # them back as the DataFrame `matches_frame` gives).
    matches = matchstore.narrow_table(rec.first_match, rec.matches, rec.layout.match_columns)
    return {"matches": matches, **hists, "cards": cards_table(rec, card_ids)}


def write_chunk(run: RunFolder, index: int, tables: dict) -> None:
    """Write a chunk's tables into a hidden folder, then rename it into place."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pyarrow.parquet as pq

    final = run.chunk_path(index)
    tmp = final.parent / f".{final.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name, table in tables.items():
        if name == DENSE_FORM:
            histstore.write_dense(tmp / histstore.DENSE, table)
        elif name == "matches":
            matchstore.write(tmp / matchstore.FILE, table)
        elif name == "cards":
            pq.write_table(table, tmp / "cards.parquet")
        else:
            table.to_parquet(tmp / f"{name}.parquet", index=False)
    os.replace(tmp, final)


def read_table(run_path: Path | str, name: str, chunks: list[int] | None = None):
    """One table of a run, all chunks in match order."""
    # deferred: pandas and pyarrow load only when records are read or written
    import pandas as pd

    base = Path(run_path) / CHUNKS
    folders = sorted(p for p in base.iterdir() if p.is_dir() and p.name.isdigit())
    if chunks is not None:
        folders = [p for p in folders if int(p.name) in chunks]
    if name == "histograms":
        frames = [histstore.read_long(p) for p in folders]
    elif name == "matches":
        frames = [matchstore.read_frame(p) for p in folders]
    else:
        frames = [pd.read_parquet(p / f"{name}.parquet") for p in folders]
    if not frames:
        raise StoreError(f"{run_path}: no complete chunks")
    # A chunk without rows (no histogram count in it) reads back with an empty category
    # list, and concatenating it would turn a categorical column into objects: the table
    # would depend on the chunking.
    frames = [f for f in frames if len(f)] or frames[:1]
    df = pd.concat(frames, ignore_index=True)
    if name == "cards":
        keys = ["seat", "card"]
        df = df.groupby(keys, sort=False, as_index=False).sum()
    return df


def results_in(root: Path) -> list[tuple[Path, dict]]:
    """Every folder of a results folder with a readable manifest, and that manifest: the
    simulation runs and the folders experiments wrote (whose manifests name their `kind`)."""
    out = []
    root = Path(root)
    if not root.is_dir():
        return out
    for p in sorted(root.iterdir()):
        if (p / MANIFEST).is_file():
            try:
                out.append((p, json.loads((p / MANIFEST).read_text(encoding="utf-8"))))
            except (json.JSONDecodeError, OSError):
                continue
    return out



def chunk_matches(index: int, chunk_size: int, matches: int) -> int:
    """The matches chunk `index` holds of a run of `matches` in chunks of `chunk_size`."""
    return max(0, min(chunk_size, matches - index * chunk_size))


def chunk_totals(tables: dict, bins: dict[str, int], seats: int = DEFAULT_SEATS
                 ) -> Totals | None:
    """A chunk's sums from its tables in memory, as `totals` would read them back (None
    for the long form, which is summed from the store)."""
    if DENSE_FORM not in tables:
        return None
    matches = matchstore.table_arrays(tables["matches"], widen=False)
    return Totals.of_columns(matches, histstore.summed(None, bins, tables[DENSE_FORM]),
                             seats=seats)


def totals(run_path: Path | str, bins: dict[str, int],
           parts: dict[int, Totals] | None = None, seats: int = DEFAULT_SEATS) -> Totals:
    """A run's sums, read chunk by chunk, so that a run of any size is summed in constant
    memory; `bins` gives each histogram's bin count, `seats` the players at the table.
    `parts` holds chunks' sums made while they were written (`chunk_totals`), so that only
    the others are read back."""
    out = None
    parts = parts or {}
    base = Path(run_path) / CHUNKS
    folders = sorted(p for p in base.iterdir() if p.is_dir() and p.name.isdigit())

    def frames(columns=None):
        for folder in folders:
            yield matchstore.read_frame(folder, columns)

    # Chunk by chunk in index order, whichever way each was summed: the same float sums.
    for folder in folders:
        part = parts.get(int(folder.name))
        if part is None:
            matches = matchstore.read_arrays(folder)
            part = Totals.of_columns(matches, histstore.summed(folder, bins), seats=seats)
        out = part if out is None else out + part
    if out is None:
        raise StoreError(f"{run_path}: no complete chunks")
    out.frames = frames
    return out
