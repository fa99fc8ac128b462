"""The results store: results/<run-id>/ with a manifest and one parquet folder per chunk,
each written under a temporary name and renamed only when complete."""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.records import BatchRecords, Totals

MANIFEST = "manifest.json"
CHUNKS = "chunks"
SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
TABLES = ("matches", "histograms", "cards")


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
        import pyarrow.parquet as pq

        path = self.chunk_path(index)
        try:
            meta = pq.read_metadata(path / "matches.parquet")
            for name in TABLES[1:]:
                pq.read_metadata(path / f"{name}.parquet")
        except (OSError, ValueError):
            return False
        return meta.num_rows == games

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


def chunk_tables(rec: BatchRecords, card_ids: tuple[str, ...]):
    """The three tidy tables of one chunk: matches, histogram counts (long), card
    statistics."""
    import pandas as pd

    matches = rec.matches_frame()
    n = len(matches)
    index = np.arange(rec.first_match, rec.first_match + n)
    measures = list(rec.hists)
    # Every measure's (seat, value) counts side by side, one row per match: the nonzero
    # cells of that matrix come match-major, then measure, seat and value in their declared
    # order, the same table whatever the chunking, with no sort.
    blocks = [c.reshape(n, c.shape[1] * c.shape[2]) for c in rec.hists.values()] or [
        np.zeros((n, 0), np.int32)]
    wide = np.hstack(blocks) if len(blocks) > 1 else blocks[0]
    col_measure = np.concatenate([np.full(b.shape[1], k, dtype=np.int8)
                                  for k, b in enumerate(blocks)])
    col_seat = np.concatenate([np.repeat(np.arange(c.shape[1], dtype=np.int8), c.shape[2])
                               for c in rec.hists.values()] or [np.zeros(0, np.int8)])
    col_value = np.concatenate([np.tile(np.arange(c.shape[2], dtype=np.int16), c.shape[1])
                                for c in rec.hists.values()] or [np.zeros(0, np.int16)])
    match, col = np.nonzero(wide)
    hists = pd.DataFrame({
        "match_index": index[match],
        "seat": col_seat[col],
        "measure": pd.Categorical.from_codes(col_measure[col], categories=measures or ["none"]),
        "value": col_value[col],
        "count": wide[match, col].astype(np.int32),
    })
    seat, card = np.meshgrid(np.arange(rec.card_stats.shape[0]), np.arange(len(card_ids)),
                             indexing="ij")
    cards = pd.DataFrame({"seat": seat.ravel().astype(np.int8),
                          "card": np.array(card_ids, dtype=object)[card.ravel()]})
    for k, name in enumerate(rec.layout.card_stats):
        cards[name] = rec.card_stats[:, :, k].ravel()
    cards = cards[cards.matches_in_deck > 0].reset_index(drop=True)
    return {"matches": matches, "histograms": hists, "cards": cards}


def write_chunk(run: RunFolder, index: int, tables: dict) -> None:
    """Write a chunk's tables into a hidden folder, then rename it into place."""
    final = run.chunk_path(index)
    tmp = final.parent / f".{final.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in TABLES:
        tables[name].to_parquet(tmp / f"{name}.parquet", index=False)
    os.replace(tmp, final)


def read_table(run_path: Path | str, name: str, chunks: list[int] | None = None):
    """One table of a run, all chunks in match order."""
    import pandas as pd

    base = Path(run_path) / CHUNKS
    folders = sorted(p for p in base.iterdir() if p.is_dir() and p.name.isdigit())
    if chunks is not None:
        folders = [p for p in folders if int(p.name) in chunks]
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


def list_runs(root: Path) -> list[dict]:
    out = []
    root = Path(root)
    if not root.is_dir():
        return out
    for p in sorted(root.iterdir()):
        if (p / MANIFEST).is_file():
            try:
                out.append(json.loads((p / MANIFEST).read_text(encoding="utf-8")))
            except (json.JSONDecodeError, OSError):
                continue
    return out



def totals(run_path: Path | str, bins: dict[str, int], seats: int = 2) -> Totals:
    """A run's sums, read chunk by chunk, so that a run of any size is summed in constant
    memory; `bins` gives each histogram's bin count, `seats` the players at the table."""
    import pyarrow.parquet as pq

    out = None
    base = Path(run_path) / CHUNKS
    folders = sorted(p for p in base.iterdir() if p.is_dir() and p.name.isdigit())

    def frames(columns=None):
        for folder in folders:
            yield pq.read_table(folder / "matches.parquet", columns=columns).to_pandas()

    for folder in folders:
        matches = pq.read_table(folder / "matches.parquet").to_pandas()
        h = pq.read_table(folder / "histograms.parquet")
        measure = h.column("measure").combine_chunks()
        codes = measure.indices.to_numpy(zero_copy_only=False)
        names = measure.dictionary.to_pylist()
        seat, value, count = (h.column(c).to_numpy() for c in ("seat", "value", "count"))
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
        part = Totals.of_frame(matches, hists, frames, seats)
        out = part if out is None else out + part
    if out is None:
        raise StoreError(f"{run_path}: no complete chunks")
    return out
