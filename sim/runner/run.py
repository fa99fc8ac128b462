"""simulate(): validate, split into chunks, run them on loky or Dask workers, stream each
finished chunk to the results store; resumable, and the same bytes for any split."""

from __future__ import annotations

import math
import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from sim import __version__
from sim.core import blocks
from sim.kit import game as registry
from sim.kit.game import Game
from sim.kit.records import seats_of
from sim.runner.warmup import ensure
from sim.store.lock import writing
from sim.store.matches import read_arrays
from sim.store.runs import (
    DENSE_FORM,
    LONG_FORM,
    RunFolder,
    StoreError,
    chunk_matches,
    chunk_tables,
    chunk_totals,
    create_run,
    open_run,
    totals,
    write_chunk,
)

BACKENDS = ("loky", "dask", "serial")


@dataclass
class RunResult:
    run: RunFolder
    matches: int
    chunks: int
    wall: float
    status: str
    skipped: int = 0  # chunks found complete on resume


def play_chunk(game: str, matchup, seed: int, index: int, chunk_size: int, matches: int,
               threads: int):
    """Play one chunk; its records."""
    g = registry.get(game)
    blocks.set_threads(min(threads, blocks.default_threads()))
    first = index * chunk_size
    n = min(chunk_size, matches - first)
    return g.run_batch(matchup, n, seed, first_match=first)


def run_chunk(game: str, matchup, card_ids: tuple[str, ...], seed: int, index: int,
              chunk_size: int, matches: int, threads: int, form: str) -> tuple[int, dict]:
    """Play one chunk (in a worker) and return its tables, the histograms in `form`."""
    rec = play_chunk(game, matchup, seed, index, chunk_size, matches, threads)
    return index, chunk_tables(rec, card_ids, form)


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def new_manifest(game: Game, matchup, run_id: str, seed: int, matches: int, chunk_size: int,
                 target_ci: float | None) -> dict:
    """The manifest of a new run: provenance, the game and its schema, and the game's own
    description of the matchup (enough to rebuild it exactly)."""
    # deferred: numba and pandas load only when a run describes its versions
    import numba
    import pandas

    return {
        "run_id": run_id,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "cardlab_version": __version__,
        "git_commit": git_commit(),
        "versions": {"numba": numba.__version__, "numpy": np.__version__,
                     "pandas": pandas.__version__, "python": platform.python_version()},
        "game": game.name,
        "schema": game.schema_of(matchup).to_json(),
        **game.describe(matchup),
        "seed": seed,
        "matches": matches,
        "chunk_size": chunk_size,
        "target_ci": target_ci,
        "histogram_form": DENSE_FORM,
        "status": "running",
        "matches_done": 0,
        "wall_seconds": 0.0,
        "matches_per_second": None,
    }


def half_width(wins: int, n: int) -> float:
    # deferred: scipy and statsmodels load only when a statistic needs them
    from sim.core.stats import wilson

    lo, hi = wilson(wins, n)
    return float(hi - lo) / 2


def _executor(backend: str, workers: int, scheduler: str | None):
    """A function mapping a task list to an iterator of results as they finish."""
    if backend == "serial" or (backend == "loky" and workers == 1):
        # One worker plays in this process: a worker process would add only its start-up
        # (imports, loading the kernel) and the copying of every chunk back.
        return _played_ahead, lambda: None
    if backend == "loky":
        # deferred: the loky backend loads only when it runs
        from joblib import Parallel, delayed

        par = Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered")
        return lambda tasks: par(delayed(run_chunk)(*t) for t in tasks), lambda: None
    try:
        # deferred: Dask loads only when it runs
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise StoreError("the dask backend needs the distributed extra: "
                         "python -m pip install -e '.[distributed]'") from None
    if scheduler:
        client = Client(scheduler, timeout="20s")
        cluster = None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)

    def run(tasks):
        futures = [client.submit(run_chunk, *t, pure=False) for t in tasks]
        for fut in as_completed(futures):
            yield fut.result()

    def close():
        client.close()
        if cluster is not None:
            cluster.close()

    return run, close


def _played_ahead(tasks) -> Iterator[tuple[int, dict]]:
    """Chunks played in this process in order: the next chunk's kernel (whose threads
    release the GIL) plays while this thread tables and writes the one before."""
    def play(task):
        game, matchup, card_ids, seed, index, chunk_size, matches, threads, form = task
        return index, card_ids, form, play_chunk(game, matchup, seed, index, chunk_size,
                                                 matches, threads)

    with ThreadPoolExecutor(max_workers=1) as ahead:
        pending = None
        for task in tasks:
            following = ahead.submit(play, task)
            if pending is not None:
                index, card_ids, form, rec = pending.result()
                yield index, chunk_tables(rec, card_ids, form)
            pending = following
        if pending is not None:
            index, card_ids, form, rec = pending.result()
            yield index, chunk_tables(rec, card_ids, form)


def new_run_id(seed: int) -> str:
    """A new run's name when none is given: the time, the seed and four random hex digits."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + f"-s{seed}-" + os.urandom(2).hex()


def target_chunk(target_ci: float) -> int:
    """Matches a chunk when a run stops at a 95% half-width: a quarter of what the target
    needs at a win rate of one half (1.96^2 / 4 / h^2, the most any rate needs), so that
    the run stops within a quarter of its need; between 500 and 50,000."""
    need = math.ceil(1.96 ** 2 / 4 / target_ci ** 2)
    return min(50_000, max(500, math.ceil(need / 4)))


def simulate(game: Game | None, matchup, matches: int, seed: int,
             results: Path | str = "results", run_id: str | None = None,
             chunk_size: int = 50_000, workers: int | None = None, backend: str = "loky",
             scheduler: str | None = None, resume: str | None = None,
             target_ci: float | None = None, max_matches: int | None = None,
             progress: Callable[[int, int, int], None] | None = None,
             note: dict | None = None) -> RunResult:
    """Play `matches` matches of a game (or, with target_ci, chunks until the 95% interval
    half-width of deck A's win rate is at most target_ci, up to max_matches) into
    results/<run_id>/. On resume, the game and matchup come from the run's manifest. `note`
    joins a new run's manifest (what made the run, e.g. the workbench's edits)."""
    if backend not in BACKENDS:
        raise StoreError(f"unknown backend {backend!r}; one of {', '.join(BACKENDS)}")
    results = Path(results)
    if resume:
        run = open_run(results, resume)
    else:
        if (matches < 1 and target_ci is None) or chunk_size < 1:
            raise StoreError("matches and chunk size must be at least 1")
        if target_ci is not None:
            if not 0 < target_ci < 0.5:
                raise StoreError("--target-ci must be between 0 and 0.5")
            matches = max_matches or 10_000_000
        run_id = new_run_id(seed) if run_id is None else run_id
        manifest = {**new_manifest(game, matchup, run_id, seed, matches, chunk_size, target_ci),
                    **(note or {})}
        run = create_run(results, run_id, manifest)
    # One writer at a time: a second resume of the same run is refused before it reads or
    # cleans anything.
    with writing(run.path, "a resume" if resume else "a simulation"):
        if resume:
            manifest = run.read_manifest()
            if manifest["status"] == "complete":
                raise StoreError(f"{run.path} is complete; a finished run is never changed")
            game = registry.get(manifest["game"])
            matchup = game.from_manifest(manifest)
            seed, matches = manifest["seed"], manifest["matches"]
            chunk_size, target_ci = manifest["chunk_size"], manifest["target_ci"]
            _same_records(run, manifest, game.schema_of(matchup).to_json())
            run.clean_temporaries()
        return _play(run, manifest, game, matchup, seed, matches, chunk_size, workers,
                     backend, scheduler, target_ci, progress)


def _records_layout(schema: dict) -> tuple:
    """What a chunk's tables hold, by name: the match columns, each histogram's bins and
    censoring, the card statistics (their meanings, which may be reworded, left out; a
    manifest keeps its keys sorted)."""
    return (tuple(sorted(schema["match_columns"])),
            tuple(sorted((k, h["bins"], tuple(h.get("censored", ())))
                         for k, h in schema.get("histograms", {}).items())),
            tuple(sorted(schema.get("card_stats", {}))))


def _same_records(run, manifest: dict, schema: dict) -> None:
    """Refuse to resume a run whose chunks this version would write differently: mixed
    chunks would be one run in name only."""
    if _records_layout(manifest["schema"]) != _records_layout(schema):
        raise StoreError(
            f"{run.path} was recorded by cardlab {manifest.get('cardlab_version', '?')} "
            f"(commit {manifest.get('git_commit') or '?'}), whose records differ from what "
            "this version writes (match columns or histograms); it cannot be resumed: "
            "start a new run")


def _play(run, manifest, game, matchup, seed, matches, chunk_size, workers, backend,
          scheduler, target_ci, progress) -> RunResult:
    """The chunks a run lacks, played and written, and its manifest completed."""
    cores = os.cpu_count() or 1
    # Two numba threads per worker process by default: the same speed as one thread each,
    # half the processes (each holds its own compiled engine in memory).
    workers = max(1, workers or cores // 2)
    threads = max(1, cores // workers)
    n_chunks = math.ceil(matches / chunk_size)
    done = [i for i in run.complete_chunks()
            if run.verify_chunk(i, chunk_matches(i, chunk_size, matches))]
    for bad in set(run.complete_chunks()) - set(done):
        run.remove_chunk(bad)
    skipped = len(done)
    # Compile (or load the cached kernel) once here before the workers start.

    ensure(game, matchup)
    start = time.perf_counter()
    matches_done = sum(chunk_matches(i, chunk_size, matches) for i in done)
    matches_before = matches_done
    run_tasks, close = _executor(backend, workers, scheduler)
    card_ids = tuple(manifest["card_pool"]["ids"])
    # A run keeps the form its first chunks were stored in (runs from before the dense form
    # have no "histogram_form" and stay long when resumed).
    form = manifest.get("histogram_form", LONG_FORM)
    # Each chunk's sums, made from its tables while they are in memory, for the exact check.
    parts = {}
    bins = histogram_bins(manifest) if game.exact_check is not None else None
    seats = seats_of(manifest["schema"])
    if manifest["status"] != "running":  # a resumed run; a new one was written running
        manifest["status"] = "running"
        run.write_manifest(manifest)
    try:
        for wave in _waves(done, n_chunks, workers, target_ci is not None):
            tasks = [(game.name, matchup, card_ids, seed, i, chunk_size, matches, threads,
                      form) for i in wave]
            for index, tables in run_tasks(tasks):
                write_chunk(run, index, tables)
                part = chunk_totals(tables, bins, seats) if bins is not None else None
                if part is not None:
                    parts[index] = part
                n = len(tables["matches"])
                matches_done += n
                if progress:
                    progress(matches_done, matches, n)
            done += wave
            if target_ci is not None and _target_prefix(run, done, chunk_size, matches,
                                                        target_ci)[1]:
                break
    except BaseException:
        manifest["status"] = "interrupted"
        manifest["matches_done"] = matches_done
        run.write_manifest(manifest)
        raise
    finally:
        close()
    wall = time.perf_counter() - start
    if target_ci is not None:
        keep, _ = _target_prefix(run, done, chunk_size, matches, target_ci)
        for i in sorted(done):
            if i not in keep:
                run.remove_chunk(i)
        matches_done = sum(chunk_matches(i, chunk_size, matches) for i in keep)
        manifest["matches"] = matches_done
    if game.exact_check is not None:
        check = write_exact_check(run, game, matchup, manifest, parts)
        if check is not None:
            manifest["exact_check"] = check
    manifest.update(status="complete", matches_done=matches_done,
                    wall_seconds=round(manifest.get("wall_seconds", 0.0) + wall, 3))
    new = matches_done - matches_before
    manifest["matches_per_second"] = round(new / wall, 1) if wall and new > 0 else None
    run.write_manifest(manifest)
    return RunResult(run, matches_done, len(run.complete_chunks()), wall, "complete", skipped)


def _waves(done: list[int], n_chunks: int, workers: int, adaptive: bool) -> Iterator[list[int]]:
    """Missing chunks in order: all at once, or a wave of `workers` at a time when the run
    stops at a target precision."""
    todo = [i for i in range(n_chunks) if i not in set(done)]
    if not adaptive:
        if todo:
            yield todo
        return
    for k in range(0, len(todo), workers):
        yield todo[k:k + workers]


def _target_prefix(run, done, chunk_size, matches, target) -> tuple[list[int], bool]:
    """The shortest run of chunks 0..k-1 whose headline interval meets the target: the
    same chunks whatever the number of workers."""
    done = sorted(done)
    prefix = []
    for i in done:
        if i != len(prefix):
            break
        prefix.append(i)
    if not prefix:
        return [], False

    wins = np.concatenate([read_arrays(run.chunk_path(i), ["winner"])["winner"] == 0
                           for i in prefix]).cumsum()
    ends = [0]
    for i in prefix:
        ends.append(ends[-1] + chunk_matches(i, chunk_size, matches))
    for k in range(1, len(prefix) + 1):
        n = ends[k]
        if half_width(int(wins[n - 1]), n) <= target:
            return prefix[:k], True
    return prefix, False


def histogram_bins(manifest: dict) -> dict[str, int]:
    """Each histogram's bin count in a run: its labels' count when the run fixes them."""
    labels = manifest.get("histogram_labels", {})
    return {name: len(labels[name]) if name in labels else h["bins"]
            for name, h in manifest["schema"]["histograms"].items()}


class LazyTotals:
    """A run's totals, read from the store only when an exact check asks for them: a setting
    the game does not cover costs nothing."""

    def __init__(self, make):
        self._make = make
        self._totals = None

    def __getattr__(self, name):
        if self._totals is None:
            self._totals = self._make()
        return getattr(self._totals, name)


def write_exact_check(run: RunFolder, game: Game, matchup, manifest: dict,
                      parts: dict | None = None) -> dict | None:
    """Where the game solves the setting exactly, put every Monte Carlo quantity beside its
    exact value (exact_check.parquet) and summarise the check for the manifest; `parts`:
    chunks' sums already made (`chunk_totals`)."""
    seats = seats_of(manifest["schema"])
    df = game.exact_check(matchup, LazyTotals(
        lambda: totals(run.path, histogram_bins(manifest), parts, seats)))
    if df is None or not len(df):
        return None
    df.to_parquet(run.path / "exact_check.parquet", index=False)
    return {"quantities": len(df), "flagged": int(df.flag.sum()),
            "max_abs_z": round(float(df.z.abs().max()), 3)}
