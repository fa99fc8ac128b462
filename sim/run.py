"""simulate(): validate, split into chunks, run them on loky or Dask workers, stream each
finished chunk to the results store; resumable, and the same bytes for any split."""

from __future__ import annotations

import math
import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sim import __version__
from sim.paintline.batch import Matchup
from sim.store import RunFolder, StoreError, chunk_tables, create_run, open_run, write_chunk

BACKENDS = ("loky", "dask", "serial")


@dataclass
class RunResult:
    run: RunFolder
    games: int
    chunks: int
    wall: float
    status: str
    skipped: int = 0  # chunks found complete on resume


def run_chunk(matchup: Matchup, seed: int, index: int, chunk_size: int, games: int,
              threads: int) -> tuple[int, dict]:
    """Play one chunk (in a worker) and return its tables."""
    import numba

    from sim.paintline.batch import run_batch

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    first = index * chunk_size
    n = min(chunk_size, games - first)
    rec = run_batch(matchup, n, seed, first_game=first)
    return index, chunk_tables(rec, matchup.pool.ids)


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def new_manifest(matchup: Matchup, run_id: str, seed: int, games: int, chunk_size: int,
                 target_ci: float | None) -> dict:
    import numba
    import numpy
    import pandas

    pool = matchup.pool
    return {
        "run_id": run_id,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "cardlab_version": __version__,
        "git_commit": git_commit(),
        "versions": {"numba": numba.__version__, "numpy": numpy.__version__,
                     "pandas": pandas.__version__, "python": platform.python_version()},
        "seed": seed,
        "games": games,
        "chunk_size": chunk_size,
        "target_ci": target_ci,
        "rules": matchup.rules.values,
        "card_pool": {"path": str(pool.path), "sha256": pool.sha256, "ids": list(pool.ids)},
        "card_table": matchup.pool.table.tolist(),
        "decks": [{"name": d.name, "path": str(d.path),
                   "cards": [[pool.ids[c], n] for c, n in d.counts]} for d in matchup.decks],
        "arsenals": [[pool.ids[c] for c in cards] for cards in matchup.arsenals],
        "policies": [{"name": name, "params": vec.tolist()}
                     for name, vec in zip(matchup.policy_names, matchup.policies, strict=True)],
        "status": "running",
        "games_done": 0,
        "wall_seconds": 0.0,
        "games_per_second": None,
    }


def matchup_from_manifest(manifest: dict) -> Matchup:
    """Rebuild the exact matchup a run was made with (card values included); the names
    come from the pool file when it still lists the same cards."""
    import numpy as np

    from sim.paintline import pool as T

    cp = manifest["card_pool"]
    path = Path(cp["path"])
    ids = tuple(cp["ids"])
    words = T.load_pool(path) if path.exists() else None
    same = words is not None and words.ids == ids
    table = np.array(manifest["card_table"], dtype=np.int64)
    table.setflags(write=False)
    pool = T.Pool(path, ids, words.names if same else ids,
                  words.texts if same else ("",) * len(ids), table, cp["sha256"])
    decks = []
    for d in manifest["decks"]:
        counts = tuple((ids.index(c), n) for c, n in d["cards"])
        coach = next((c for c, _ in counts if table[c, T.C_KIND] == T.COACH), -1)
        nation = max((int(table[c, T.C_NATION]) for c, _ in counts), default=T.NEUTRAL)
        decks.append(T.Deck(Path(d["path"]), d["name"], counts, coach, nation))
    rules = T.load_rules().replace(**manifest["rules"])
    pols = manifest["policies"]
    vecs = tuple(np.array(p["params"], dtype=np.float64) for p in pols)
    arsenals = tuple(tuple(ids.index(c) for c in cards)
                     for cards in manifest.get("arsenals", [[], []]))
    return Matchup(pool, rules, (decks[0], decks[1]), (pols[0]["name"], pols[1]["name"]), vecs,
                   (arsenals[0], arsenals[1]))


def half_width(wins: int, n: int) -> float:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return (hi - lo) / 2


def _executor(backend: str, workers: int, scheduler: str | None):
    """A function mapping a task list to an iterator of results as they finish."""
    if backend == "serial":
        return lambda tasks: (run_chunk(*t) for t in tasks), lambda: None
    if backend == "loky":
        from joblib import Parallel, delayed

        par = Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered")
        return lambda tasks: par(delayed(run_chunk)(*t) for t in tasks), lambda: None
    try:
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


def simulate(matchup: Matchup | None, games: int, seed: int, results: Path | str = "results",
             run_id: str | None = None, chunk_size: int = 50_000, workers: int | None = None,
             backend: str = "loky", scheduler: str | None = None, resume: str | None = None,
             target_ci: float | None = None, max_games: int | None = None,
             progress: Callable[[int, int, int], None] | None = None) -> RunResult:
    """Play `games` matches (or, with target_ci, chunks until the 95% interval half-width of
    deck A's win rate is at most target_ci, up to max_games) into results/<run_id>/."""
    from sim.paintline.batch import run_batch

    if backend not in BACKENDS:
        raise StoreError(f"unknown backend {backend!r}; one of {', '.join(BACKENDS)}")
    results = Path(results)
    if resume:
        run = open_run(results, resume)
        manifest = run.read_manifest()
        if manifest["status"] == "complete":
            raise StoreError(f"{run.path} is complete; a finished run is never changed")
        matchup = matchup_from_manifest(manifest)
        seed, games = manifest["seed"], manifest["games"]
        chunk_size, target_ci = manifest["chunk_size"], manifest["target_ci"]
        run.clean_temporaries()
    else:
        if (games < 1 and target_ci is None) or chunk_size < 1:
            raise StoreError("games and chunk size must be at least 1")
        if target_ci is not None:
            if not 0 < target_ci < 0.5:
                raise StoreError("--target-ci must be between 0 and 0.5")
            games = max_games or 10_000_000
        if run_id is None:
            run_id = (datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + f"-s{seed}-"
                      + os.urandom(2).hex())
        manifest = new_manifest(matchup, run_id, seed, games, chunk_size, target_ci)
        run = create_run(results, run_id, manifest)
    cores = os.cpu_count() or 1
    # Two numba threads per worker process by default: the same speed as one thread each,
    # half the processes (each holds its own compiled engine in memory).
    workers = max(1, workers or cores // 2)
    threads = max(1, cores // workers)
    n_chunks = math.ceil(games / chunk_size)
    done = [i for i in run.complete_chunks() if run.verify_chunk(i, _chunk_games(i, chunk_size,
                                                                                   games))]
    for bad in set(run.complete_chunks()) - set(done):
        run.remove_chunk(bad)
    skipped = len(done)
    # Compile (or load the cached kernel) once here before the workers start.
    run_batch(matchup, 1, seed)
    start = time.perf_counter()
    games_done = sum(_chunk_games(i, chunk_size, games) for i in done)
    games_before = games_done
    run_tasks, close = _executor(backend, workers, scheduler)
    manifest["status"] = "running"
    run.write_manifest(manifest)
    try:
        for wave in _waves(done, n_chunks, workers, target_ci is not None):
            tasks = [(matchup, seed, i, chunk_size, games, threads) for i in wave]
            for index, tables in run_tasks(tasks):
                write_chunk(run, index, tables)
                n = len(tables["matches"])
                games_done += n
                if progress:
                    progress(games_done, games, n)
            done += wave
            if target_ci is not None and _target_prefix(run, done, chunk_size, games,
                                                        target_ci)[1]:
                break
    except BaseException:
        manifest["status"] = "interrupted"
        manifest["games_done"] = games_done
        run.write_manifest(manifest)
        raise
    finally:
        close()
    wall = time.perf_counter() - start
    if target_ci is not None:
        keep, _ = _target_prefix(run, done, chunk_size, games, target_ci)
        for i in sorted(done):
            if i not in keep:
                run.remove_chunk(i)
        games_done = sum(_chunk_games(i, chunk_size, games) for i in keep)
        manifest["games"] = games_done
    if matchup.rules.values["rally_mode"]:
        manifest["exact_check"] = write_exact_check(run, matchup)
    manifest.update(status="complete", games_done=games_done,
                    wall_seconds=round(manifest.get("wall_seconds", 0.0) + wall, 3))
    new = games_done - games_before
    manifest["games_per_second"] = round(new / wall, 1) if wall and new > 0 else None
    run.write_manifest(manifest)
    return RunResult(run, games_done, len(run.complete_chunks()), wall, "complete", skipped)


def _chunk_games(index: int, chunk_size: int, games: int) -> int:
    return max(0, min(chunk_size, games - index * chunk_size))


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


def _target_prefix(run, done, chunk_size, games, target) -> tuple[list[int], bool]:
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
    import numpy as np
    import pyarrow.parquet as pq

    wins = np.concatenate([
        pq.read_table(run.chunk_path(i) / "matches.parquet", columns=["winner"])
        .column("winner").to_numpy() == 0 for i in prefix]).cumsum()
    ends = [0]
    for i in prefix:
        ends.append(ends[-1] + _chunk_games(i, chunk_size, games))
    for k in range(1, len(prefix) + 1):
        n = ends[k]
        if half_width(int(wins[n - 1]), n) <= target:
            return prefix[:k], True
    return prefix, False


def write_exact_check(run: RunFolder, matchup: Matchup) -> dict:
    """Rally mode is covered by the exact solver: put every Monte Carlo quantity beside its
    exact value (exact_check.parquet) and summarise the check for the manifest."""
    import numpy as np

    from sim.paintline import exact
    from sim.records import RALLY_BINS
    from sim.store import read_table

    answer = exact.solve(matchup)
    rallies = read_table(run.path, "rallies")
    steps = len(matchup.rules.values["escalation"])
    counts = {"length": np.zeros((2, RALLY_BINS)), "top_step": np.zeros((2, steps))}
    sums = rallies.groupby(["measure", "server", "value"])["count"].sum()
    for (measure, server, value), c in sums.items():
        counts[measure][server, value] = c
    matches = read_table(run.path, "matches")
    df = exact.check(answer, counts["length"], counts["top_step"],
                     int((matches.winner == 0).sum()), len(matches))
    df.to_parquet(run.path / "exact_check.parquet", index=False)
    return {"quantities": len(df), "flagged": int(df.flag.sum()),
            "max_abs_z": round(float(df.z.abs().max()), 3)}
