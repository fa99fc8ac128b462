"""A field of decks played against itself: every ordered pair on the same seed (common random
numbers), each pair a run of the results store under one meta folder, its chunks spread over
the loky or Dask workers of `sim.runner.run`, and the field's matrix, Nash mix and health."""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis import meta as analysis
from analysis.load import load_run
from sim.core.problems import InputError, Problem
from sim.kit import legality
from sim.kit.game import get
from sim.kit.played import played, require_unchanged
from sim.runner.run import simulate
from sim.store.outputs import experiment_manifest, new_folder, save_tables, write_json


def scores(winner: np.ndarray, seat: int) -> np.ndarray:
    """Per match, the seat's score: 1 a win, 0.5 a draw, 0 a loss."""
    w = np.asarray(winner)
    return (w == seat) + 0.5 * (w == -1)


@dataclass
class Field:
    """The decks of a field in one game folder, under one policy, rule options and card
    values: the matchup of any ordered pair, built once."""

    game: object
    folder: Path
    names: list[str]
    policy: str
    rules: dict = field(default_factory=dict)
    sets: tuple[str, ...] = ()
    # Decks built in memory (a deckbuild find), by name: card counts put into a seat of a
    # matchup of the shipped decks with the game's Building hooks.
    extra: dict = field(default_factory=dict)

    def __post_init__(self):
        if len(self.names) < 2:
            raise InputError([Problem("--decks", 0, "a field needs at least two decks, got "
                                      f"{len(self.names)}: {', '.join(self.names) or 'none'}")])
        if len(set(self.names)) != len(self.names):
            raise InputError([Problem("--decks", 0, "a deck is listed twice in the field: "
                                      f"{', '.join(self.names)}")])
        self._pairs = functools.lru_cache(maxsize=None)(self._load)

    def _load(self, a: str, b: str, sets: tuple[str, ...]):
        shipped = next(n for n in self.names if n not in self.extra)
        m = self.game.load_matchup(self.folder, shipped if a in self.extra else a,
                                   shipped if b in self.extra else b, self.policy,
                                   self.policy, dict(self.rules), list(self.sets + sets))
        for seat, name in enumerate((a, b)):
            if name in self.extra:
                m = self.game.building.with_counts(m, seat, self.extra[name], name)
        return m

    def pair(self, i: int, j: int, sets: tuple[str, ...] = ()):
        """Deck i in the first seat against deck j (any two, a deck against itself too)."""
        return self._pairs(self.names[i], self.names[j], tuple(sets))

    def beside(self, name: str, sets: tuple[str, ...] = ()):
        """A deck of the folder outside the field (by its file's name) against the field's
        first deck."""
        return self._pairs(name, self.names[0], tuple(sets))

    @functools.cached_property
    def others(self) -> list[str]:
        """The folder's decks that are not in the field and are legal as they are: a patch
        of the card table must leave them legal too (read once: every step of a search
        asks). A deck the validator refuses already (a draft with a mistake) is no measure
        of a patch, and is left out."""
        inside = {Path(n).stem for n in self.names}
        out = []
        for stem in sorted(p.stem for p in Path(self.folder).glob("*.deck")):
            if stem in inside:
                continue
            try:
                if not legality.problems(self.game, self.beside(stem)):
                    out.append(stem)
            except InputError:
                continue
        return out

    def check(self) -> None:
        """Every deck loads and is legal (InputError naming the deck otherwise)."""
        for i in range(len(self.names)):
            m = self.pair(i, (i + 1) % len(self.names))
            legality.require(self.game, m, f"deck {self.names[i]!r}")

    def ordered(self) -> list[tuple[int, int]]:
        k = len(self.names)
        return [(i, j) for i in range(k) for j in range(k) if i != j]

    def with_names(self, names: list[str], sets: tuple[str, ...] | None = None) -> Field:
        return Field(self.game, self.folder, list(names), self.policy, self.rules,
                     self.sets if sets is None else tuple(sets), dict(self.extra))


def field_record(fld: Field) -> dict:
    """What a meta or deckbuild folder keeps of its field, so that a resume plays the same
    field whatever its command line says: the game and folder, the decks, the policy, the
    rule options and card values; and what it plays of the folder's files, that a resume
    checks."""
    return {"game": fld.game.name, "folder": str(Path(fld.folder).resolve()),
            "decks": list(fld.names), "policy": fld.policy, "rules": dict(fld.rules),
            "sets": list(fld.sets), "from_files": field_played(fld)}


def field_played(fld: Field) -> dict:
    """What every pair of the field plays of its folder's files (sim.kit.played)."""
    return played(fld.game, fld.folder, [fld.pair(i, j) for i, j in fld.ordered()])


def same_files(record: dict, fld: Field, path: Path) -> None:
    """InputError naming each file of the field's folder that changed what the field plays
    since the run in `path` began (its record: meta.json, deckbuild's state.json)."""
    require_unchanged(record.get("from_files"), field_played(fld), path)


def recorded_field(record: dict, fld: Field | None = None) -> Field:
    """The field a folder's record (`field_record`) keeps; where a record from before the
    game, folder, policy or rules were kept lacks one, `fld`'s."""
    game = get(record["game"]) if "game" in record else fld.game
    return Field(game, Path(record["folder"]) if "folder" in record else fld.folder,
                 list(record["decks"]), record["policy"] if "policy" in record else fld.policy,
                 dict(record["rules"] if "rules" in record else fld.rules),
                 tuple(record["sets"]))


def read_record(path: Path, name: str, kind: str) -> dict:
    """A results folder's record of what it plays (meta.json, deckbuild's state.json), or
    InputError when the folder is not of that kind."""
    try:
        return json.loads((Path(path) / name).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, f"not a {kind} folder (no {name})")]) from None


def in_process(fld: Field, matches: int, seed: int, sets: tuple[str, ...] = (),
               first: int = 0) -> dict[tuple[int, int], np.ndarray]:
    """Every ordered pair's first-seat scores, played here (all cores), matches first ..
    first + matches - 1 of the shared seed."""
    out = {}
    for i, j in fld.ordered():
        rec = fld.game.run_batch(fld.pair(i, j, sets), matches, seed, first_match=first)
        out[i, j] = scores(rec.matches[:, 0], 0)
    return out


def pair_id(names: list[str], i: int, j: int) -> str:
    return f"{i:02d}-{j:02d}"


def play(fld: Field, matches: int, seed: int, path: Path, workers: int | None = None,
         backend: str = "loky", scheduler: str | None = None, chunk_size: int | None = None,
         progress=None) -> dict[tuple[int, int], np.ndarray]:
    """Every ordered pair as a run of the store under path/pairs (a complete one is kept,
    an interrupted one resumed); the first-seat scores of each. The same bytes at any
    worker count or chunk size: each match draws from its own streams of the seed."""
    workers = max(1, workers or (os.cpu_count() or 2) // 2)
    # Chunks of a pair spread over the workers; a pair is too small to fill them otherwise.
    chunk = chunk_size or max(1, math.ceil(matches / workers))
    pairs = path / "pairs"
    pairs.mkdir(exist_ok=True)
    out = {}
    for done, (i, j) in enumerate(fld.ordered()):
        rid = pair_id(fld.names, i, j)
        manifest = pairs / rid / "manifest.json"
        if manifest.exists():
            if json.loads(manifest.read_text())["status"] != "complete":
                simulate(None, None, 0, 0, results=pairs, resume=rid, workers=workers,
                         backend=backend, scheduler=scheduler)
        else:
            simulate(fld.game, fld.pair(i, j), matches, seed, results=pairs, run_id=rid,
                     chunk_size=chunk, workers=workers, backend=backend, scheduler=scheduler)
        out[i, j] = scores(load_run(pairs / rid).matches.winner.to_numpy(), 0)
        if progress:
            progress(done + 1, len(fld.ordered()))
    return out


def meta(fld: Field, matches: int, seed: int, results="results", run_id: str | None = None,
         workers: int | None = None, backend: str = "loky", scheduler: str | None = None,
         chunk_size: int | None = None, reps: int = 200, resume: str | None = None,
         progress=None) -> tuple[dict, Path]:
    """Play the field into one results folder and write its tables (matrix, decks,
    dominated), figures (heatmap.png, nash.png), report section and manifest."""
    if resume:
        path = Path(results) / resume
        saved = read_record(path, "meta.json", "meta")
        fld = recorded_field(saved, fld)
        same_files(saved, fld, path)  # before a pair is played or resumed
        matches, seed = saved["matches"], saved["seed"]
    else:
        fld.check()
        path = new_folder(results, run_id, "meta")
        write_json(path / "meta.json", {**field_record(fld), "matches": matches,
                                        "seed": seed})
    sc = play(fld, matches, seed, path, workers, backend, scheduler, chunk_size, progress)
    result = analysis.summary(sc, fld.names, reps, seed)
    analysis.write_figures(result, fld.names, path)
    analysis.write_report(path, result, fld.names, f"cardlab meta: {fld.game.name}, "
                          f"{len(fld.names)} decks, policy {fld.policy}")
    manifest = {**experiment_manifest(fld.game, fld.pair(0, 1), seed, matches, "meta"),
                "decks": fld.names, "pairs": {pair_id(fld.names, i, j): [fld.names[i],
                                                                         fld.names[j]]
                                              for i, j in fld.ordered()},
                "sets": list(fld.sets), "bootstrap_reps": reps,
                "effective_decks": result["effective_decks"],
                "healthy": result["health"]["healthy"],
                "nash": dict(zip(fld.names, map(float, result["decks"].nash), strict=True))}
    save_tables(path, {"matrix": result["matrix"], "decks": result["decks"],
                       "dominated": result["dominated"]}, manifest)
    return result, path
