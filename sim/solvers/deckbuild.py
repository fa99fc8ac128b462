"""The strongest legal deck a pool allows against a field: mutations that keep the validator's
word (a copy swapped for a similar card, a copy moved to another card of the deck), every
candidate of a round on the same seed, successive halving so that matches go to the
candidates that might win, the winner confirmed on held-out seeds against the best shipped
deck, and an ablation inside a broken deck naming the cards that make the difference."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import meta as analysis
from sim.core.problems import InputError, Problem
from sim.core.stats import Z95
from sim.experiments.meta import (
    Field,
    field_record,
    in_process,
    read_record,
    recorded_field,
    same_files,
    scores,
)
from sim.kit import legality
from sim.store.outputs import experiment_manifest, new_folder, save_tables, write_json


def derived_seed(seed: int, *tag: int) -> int:
    """A seed of its own for each purpose (a round, the held-out check), from the master."""
    return int(np.random.SeedSequence([seed, *tag]).generate_state(1, np.uint64)[0] >> 2)


HELD_OUT, NASH = 1, 2  # tags of derived_seed beside a round's (3 + round)


@dataclass
class Candidate:
    """A deck as counts, and its first-seat and second-seat scores against each opponent."""

    name: str
    counts: dict[str, int]
    parent: str
    series: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    @property
    def key(self) -> tuple:
        return tuple(sorted((c, n) for c, n in self.counts.items() if n > 0))


class Arena:
    """Candidates against a field's decks (weights: the field evenly or its Nash mix), both
    seats, matches 0 .. n-1 of one seed for every candidate."""

    def __init__(self, fld: Field, weights: np.ndarray, seed: int):
        self.fld, self.w, self.seed = fld, np.asarray(weights, float), seed
        self.b = fld.game.building
        self.played = 0

    def matchup(self, c: Candidate, j: int, seat: int):
        return self.b.with_counts(self.fld.pair(j, j), seat, c.counts, c.name)

    def legal(self, c: Candidate) -> list[Problem]:
        return legality.problems(self.fld.game, self.matchup(c, 0, 0))

    def play(self, c: Candidate, n: int) -> None:
        """Each series of the candidate extended to n matches (the next ones of the seed)."""
        for j, w in enumerate(self.w):
            if w <= 0:
                continue
            for seat in (0, 1):
                have = c.series.get((j, seat), np.zeros(0))
                if len(have) >= n:
                    continue
                rec = self.fld.game.run_batch(self.matchup(c, j, seat), n - len(have),
                                              self.seed, first_match=len(have))
                self.played += n - len(have)
                c.series[j, seat] = np.concatenate([have, scores(rec.matches[:, 0], seat)])

    def n(self, c: Candidate) -> int:
        """The matches of each of the candidate's series (the shortest)."""
        return min((len(s) for s in c.series.values()), default=0)

    def matches(self, c: Candidate, other: Candidate | None = None) -> int:
        """The matches behind `score` (c, other): every series (an opponent of weight, a
        seat) to the length the score reads."""
        n = self.n(c) if other is None else min(self.n(c), self.n(other))
        return n * len(c.series)

    def score(self, c: Candidate, other: Candidate | None = None) -> tuple[float, float]:
        """(mean score against the field, its standard error); with `other`, of the paired
        difference c - other over their common matches."""
        est, var = 0.0, 0.0
        n = self.n(c) if other is None else min(self.n(c), self.n(other))
        for (j, _), s in sorted(c.series.items()):
            x = s[:n] - (other.series[j, _][:n] if other is not None else 0)
            est += self.w[j] / 2 * x.mean()
            var += (self.w[j] / 2) ** 2 * (x.var(ddof=1) / n if n > 1 else 0.25)
        return float(est), float(np.sqrt(var))


def mutate(counts: dict[str, int], groups: dict[str, str], rng) -> dict[str, int]:
    """One copy swapped for a card of its group, or moved to another card of the deck."""
    cards = sorted(c for c in counts if c in groups and counts[c] > 0)
    x = cards[int(rng.integers(len(cards)))]
    if rng.random() < 0.5:
        pool = sorted(c for c, g in groups.items() if g == groups[x] and c != x)
    else:
        pool = [c for c in cards if c != x]
    if not pool:
        return dict(counts)
    y = pool[int(rng.integers(len(pool)))]
    out = dict(counts)
    out[x] -= 1
    out[y] = out.get(y, 0) + 1
    return {c: n for c, n in out.items() if n > 0}


@dataclass(frozen=True)
class Search:
    """How hard deckbuild looks: rounds, mutants a round, the matches a candidate starts
    with (doubling for the better half, rung by rung, until `elite` are left), the held-out
    matches of the confirmation, and the margin over the best shipped deck that is
    "broken"."""

    rounds: int = 6
    mutants: int = 12
    start: int = 100
    elite: int = 2
    confirm: int = 4000
    threshold: float = 0.03
    compare: bool = True  # confirm the shipped decks too (False: the found deck alone)

    def check(self) -> None:
        if not 0 < self.threshold < 1:
            raise InputError([Problem("--threshold", 0, "a win-rate margin in 0 .. 1, got "
                                      f"{self.threshold}")])
        low = [Problem(f"--{name}", 0, f"at least {least}, got {value}")
               for name, value, least in (("rounds", self.rounds, 1),
                                          ("mutants", self.mutants, 1),
                                          ("start", self.start, 2), ("elite", self.elite, 1))
               if value < least]
        if low:
            raise InputError(low)


def check_against(against: str) -> None:
    """What the search plays against: the field or its Nash mix (InputError otherwise)."""
    if against not in ("field", "nash"):
        raise InputError([Problem("--against", 0, f"field or nash, got {against!r}")])


def check_building(game, command: str) -> None:
    """The game declares the deck-building hooks the command searches with."""
    if game.building is None:
        raise InputError([Problem(command, 0, f"{game.name} declares no deck-building "
                                  "hooks (Game.building)")])


def weights(fld: Field, against: str, seed: int, matches: int) -> np.ndarray:
    """The field evenly, or its Nash mix (a matrix of its own seed)."""
    check_against(against)
    if against == "field":
        return np.full(len(fld.names), 1 / len(fld.names))
    sc = in_process(fld, matches, derived_seed(seed, NASH))
    return analysis.nash(analysis.matrix(sc, len(fld.names))[0])


def shipped(fld: Field) -> list[Candidate]:
    b = fld.game.building
    return [Candidate(name, b.counts(fld.pair(i, i), 0), name)
            for i, name in enumerate(fld.names)]


def one_round(arena: Arena, parents: list[Candidate], groups: dict, search: Search, seed: int,
              r: int, rows: list) -> tuple[list[Candidate], int]:
    """Parents and their legal mutants on the round's seed, halved rung by rung; the elite
    left, and how many mutants the validator rejected (never played)."""
    rng = np.random.default_rng([seed, r])
    pool = [Candidate(p.name, p.counts, p.parent) for p in parents]
    seen = {c.key for c in pool}
    rejected, tries = 0, 0
    while len(pool) < len(parents) + search.mutants and tries < 20 * search.mutants:
        tries += 1
        p = parents[int(rng.integers(len(parents)))]
        counts = p.counts
        for _ in range(int(rng.integers(1, 4))):
            counts = mutate(counts, groups, rng)
        c = Candidate(f"r{r}-{len(pool)}", counts, p.parent)
        if c.key in seen:
            continue
        seen.add(c.key)
        if arena.legal(c):
            rejected += 1
            continue
        pool.append(c)
    alive, n, rung = pool, search.start, 0
    while True:
        for c in alive:
            arena.play(c, n)
        alive = sorted(alive, key=lambda c: (-arena.score(c)[0], c.name))
        for rank, c in enumerate(alive):
            est, se = arena.score(c)
            rows.append({"round": r, "rung": rung, "candidate": c.name, "parent": c.parent,
                         "n": arena.matches(c), "score": est, "se": se, "rank": rank,
                         "cards": json.dumps(c.counts, sort_keys=True)})
        if len(alive) <= search.elite:
            break
        alive = alive[:max(search.elite, math.ceil(len(alive) / 2))]
        n, rung = 2 * n, rung + 1
    return alive, rejected


def confirm(fld: Field, w: np.ndarray, found: Candidate, search: Search, seed: int):
    """The found deck and every shipped deck on held-out seeds: each one's score against
    the field, and the paired difference of the found deck over the best shipped one."""
    arena = Arena(fld, w, derived_seed(seed, HELD_OUT))
    ships = shipped(fld)
    final = Candidate("found", found.counts, found.parent)
    rows = []
    for c in [final, *ships] if search.compare else [final]:
        arena.play(c, search.confirm)
        est, se = arena.score(c)
        rows.append({"deck": c.name, "score": est, "lo": est - Z95 * se, "hi": est + Z95 * se,
                     "se": se, "n": arena.matches(c)})
    if not search.compare:
        return pd.DataFrame(rows), {"best_shipped": None, "margin": None, "lo": None,
                                    "hi": None, "threshold": search.threshold,
                                    "broken": False}, arena, final, ships
    best = max(ships, key=lambda c: (arena.score(c)[0], c.name))
    d, se = arena.score(final, best)
    verdict = {"best_shipped": best.name, "margin": d, "lo": d - Z95 * se,
               "hi": d + Z95 * se, "threshold": search.threshold,
               "broken": bool(d > search.threshold and d - Z95 * se > 0)}
    return pd.DataFrame(rows), verdict, arena, final, ships


def ablation(fld: Field, arena: Arena, final: Candidate, ships: list[Candidate],
             search: Search) -> pd.DataFrame:
    """Each card the found deck holds more of than the shipped deck nearest to it, taken
    out by the game's own ablation (its filler in its place): the score it adds to the
    found deck against the field on the held-out seeds, paired."""
    near = min(ships, key=lambda s: (sum(abs(final.counts.get(c, 0) - s.counts.get(c, 0))
                                         for c in set(final.counts) | set(s.counts)), s.name))
    added = {c: n - near.counts.get(c, 0) for c, n in final.counts.items()
             if n > near.counts.get(c, 0)}
    m = arena.matchup(final, 0, 0)
    rows = []
    for v in legality.split(fld.game, fld.game.ablations(m))[0]:
        if v.seat != 0 or v.card not in added:
            continue
        c = Candidate(f"found-without-{v.card}", fld.game.building.counts(v.matchup, 0),
                      near.name)
        arena.play(c, search.confirm)
        d, se = arena.score(final, c)
        rows.append({"card": v.card, "name": v.name, "copies": final.counts[v.card],
                     "added": added[v.card], "worth": d, "lo": d - Z95 * se,
                     "hi": d + Z95 * se, "n": arena.matches(final, c)})
    df = pd.DataFrame(rows, columns=["card", "name", "copies", "added", "worth", "lo", "hi",
                                     "n"])
    df.attrs["nearest"] = near.name
    return df.sort_values(["worth", "card"], ascending=[False, True]).reset_index(drop=True)


def deckbuild(fld: Field, against: str = "field", search: Search = Search(), seed: int = 1,
              results="results", run_id: str | None = None, resume: str | None = None,
              progress=None) -> dict:
    """The search, round by round, its state written to the run folder after each (so that
    --resume finishes an interrupted search with the same answer); then the confirmation
    on held-out seeds and, for a broken deck, the ablation. Writes rounds.parquet,
    confirm.parquet, ablation.parquet, found.json and the manifest."""
    check_building(fld.game, "deckbuild")
    if resume:
        path = Path(results) / resume
        state = read_record(path, "state.json", "deckbuild")
        fld = recorded_field(state, fld)
        same_files(state, fld, path)
        against, seed, search = state["against"], state["seed"], Search(**state["search"])
    else:
        search.check()
        check_against(against)
        fld.check()
        path = new_folder(results, run_id, "deckbuild")
        state = {**field_record(fld), "against": against, "seed": seed,
                 "search": search.__dict__, "done": 0, "rejected": 0, "played": 0,
                 "parents": [], "rows": []}
    w = weights(fld, against, seed, search.confirm // 4)
    state["weights"] = [float(x) for x in w]
    groups = fld.game.building.groups(fld.pair(0, 0))
    parents = ([Candidate(p["name"], p["counts"], p["parent"]) for p in state["parents"]]
               or shipped(fld))
    for r in range(state["done"], search.rounds):
        arena = Arena(fld, w, derived_seed(seed, 3 + r))
        parents, rejected = one_round(arena, parents, groups, search, seed, r, state["rows"])
        state.update(done=r + 1, rejected=state["rejected"] + rejected,
                     played=state["played"] + arena.played,
                     parents=[{"name": p.name, "counts": p.counts, "parent": p.parent}
                              for p in parents])
        write_json(path / "state.json", state)
        if progress:
            progress(r + 1, search.rounds, parents[0], arena.score(parents[0]))
    table, verdict, arena, final, ships = confirm(fld, w, parents[0], search, seed)
    abl = (ablation(fld, arena, final, ships, search) if verdict["broken"]
           else pd.DataFrame(columns=["card", "name", "copies", "added", "worth", "lo", "hi",
                                      "n"]))
    found = {"counts": final.counts, "parent": final.parent, "name": parents[0].name,
             **verdict, "nearest": abl.attrs.get("nearest")}
    write_json(path / "found.json", found)
    manifest = {**experiment_manifest(fld.game, fld.pair(0, 1), seed, search.confirm,
                                      "deckbuild"),
                "decks": fld.names, "against": against, "weights": state["weights"],
                "search": search.__dict__, "rejected": state["rejected"],
                "matches_played": state["played"] + arena.played, **verdict}
    save_tables(path, {"rounds": pd.DataFrame(state["rows"]), "confirm": table,
                       "ablation": abl}, manifest)
    return {"path": path, "confirm": table, "verdict": verdict, "ablation": abl,
            "found": final, "rounds": pd.DataFrame(state["rows"]),
            "rejected": state["rejected"], "played": manifest["matches_played"]}
