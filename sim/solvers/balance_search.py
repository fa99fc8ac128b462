"""The search of `cardlab balance`: the fewest card-value changes, within the designer's
bounds, that bring a field to health (every deck inside a win-rate band and, for three
decks or more, several decks in the Nash mix and none dominated) on held-out seeds. A
greedy coordinate search on common random numbers (one step of one value at a time, a
penalty for each value changed), every changed card table checked by the validator before
it plays."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analysis.health import Target, distance, judge, rates
from analysis.meta import field_rates, matrix
from sim.core.problems import InputError, Problem
from sim.core.stats import Z95
from sim.experiments.meta import Field, scores
from sim.kit import legality
from sim.solvers.balance_bounds import Bounds, Budget
from sim.solvers.deckbuild import derived_seed

# Effective decks the search aims above the target's on training seeds: the Nash mix of a
# near-even field moves with the noise of its matrix, and Paint the Line's field aimed
# exactly at 2.5 landed at 2.31 and 2.40 on held-out seeds.
DIVERSITY_AIM = 0.25


def aimed(b: Bounds, k: int) -> Target:
    """The target the search aims at on training seeds: the band `margin` inside, and the
    effective number of decks DIVERSITY_AIM over (at most the support asked for)."""
    t = b.target(k).inside(b.margin)
    if not t.health:
        return t
    return replace(t, diversity=min(max(t.diversity, t.support), t.diversity + DIVERSITY_AIM))


class Table:
    """The card values the search may move: (card id, field) of every card of a kind that
    gets verdicts in a field deck, with its shipped value and the decks that hold it."""

    def __init__(self, fld: Field, b: Bounds):
        game = fld.game
        if game.tuning is None:
            raise InputError([Problem("balance", 0, f"{game.name} declares no card values "
                                      "(Game.tuning)")])
        m = fld.pair(0, 1)
        pool = game.describe(m)["card_pool"]
        kinds = dict(zip(pool["ids"], pool["kinds"], strict=True))
        kept = self.kept(pool, b.keep)
        held = {}
        for i in range(len(fld.names)):
            for cid in self.deck_cards(fld, i):
                if kinds.get(cid) in game.schema.flag_kinds and cid not in kept:
                    held.setdefault(cid, set()).add(i)
        self.cells = {}
        for f in b.fields:
            probe = next(iter(sorted(held)), pool["ids"][0])
            try:
                game.tuning.card_value(m, f"{probe}.{f}")
            except InputError as err:
                raise InputError([Problem("--fields", 0, f"{f!r} is not a card value: "
                                          f"{err.problems[0].message}")]) from None
            for cid in sorted(held):
                self.cells[f"{cid}.{f}"] = (game.tuning.card_value(m, f"{cid}.{f}"),
                                            frozenset(held[cid]))

    @staticmethod
    def kept(pool: dict, keep: tuple[str, ...]) -> set[str]:
        """The ids of the cards to keep, each named by id or name (InputError otherwise)."""
        by_name = {n.lower(): c for c, n in zip(pool["ids"], pool.get("names", pool["ids"]),
                                                 strict=True)}
        out, unknown = set(), []
        for word in keep:
            cid = word if word in pool["ids"] else by_name.get(word.lower())
            if cid is None:
                unknown.append(word)
            else:
                out.add(cid)
        if unknown:
            raise InputError([Problem("--keep", 0, f"no card {w!r} in the pool")
                              for w in unknown])
        return out

    @staticmethod
    def deck_cards(fld: Field, i: int) -> list[str]:
        if fld.game.building is not None:
            return list(fld.game.building.counts(fld.pair(i, i), 0))
        d = fld.game.describe(fld.pair(i, i))["decks"][0]
        return [c for c, _ in d.get("cards", [])]


def sets_of(changes: dict[str, int]) -> tuple[str, ...]:
    return tuple(f"{k}={v}" for k, v in sorted(changes.items()))


def play(fld: Field, changes: dict, n: int, seed: int, base: dict | None = None,
         decks: frozenset | None = None, budget: Budget | None = None) -> dict:
    """Every ordered pair's first-seat scores under the changes; only the pairs with a deck
    in `decks` are played again, the others taken from `base` (the same seeds, the same
    cards: the same matches). The matches played count against `budget`."""
    sets = sets_of(changes)
    out = {}
    for i, j in fld.ordered():
        if base is not None and decks is not None and i not in decks and j not in decks:
            out[i, j] = base[i, j]
            continue
        rec = fld.game.run_batch(fld.pair(i, j, sets), n, seed)
        out[i, j] = scores(rec.matches[:, 0], 0)
        if budget is not None:
            budget.spent += n
    return out


def legal(fld: Field, changes: dict) -> bool:
    """Whether the game takes the values (its --set reader) and the validator accepts the
    card table and every deck of the folder under them: the field's, and the others, which
    the patch written to the folder changes too (a copy limit set by a rarity the values
    give, say)."""
    k = len(fld.names)
    sets = sets_of(changes)
    # Pairs (0, 1), (2, 3), ... hold every deck once; the play loads them anyway.
    pairs = [(i, (i + 1) % k) for i in range(0, k, 2)]
    try:
        return not (any(legality.problems(fld.game, fld.pair(i, j, sets)) for i, j in pairs)
                    or any(legality.problems(fld.game, fld.beside(d, sets))
                           for d in fld.others))
    except InputError:
        return False


def trial_of(changes: dict, key: str, shipped, value) -> dict:
    trial = {**changes, key: value}
    if value == shipped:
        del trial[key]
    return trial


@dataclass
class State:
    """Where the search stands: the changed values, their matches and matrix."""

    changes: dict
    sc: dict
    M: np.ndarray


def implicated(M: np.ndarray, target: Target) -> list[set]:
    """The decks whose cards the search tries first, then every deck: the deck furthest
    outside the band; where none is, the decks of the Nash mix (the leaders a healthy field
    cuts back or sets against each other) and every dominated deck."""
    k = len(M)
    r = rates(M)
    far = np.maximum(0, target.lo - r) + np.maximum(0, r - target.hi)
    if far.max() > 0:
        first = {int(np.argmax(far))}
    else:
        h = judge(M, [str(i) for i in range(k)], target)
        first = set(np.flatnonzero(h["mix"] > 1e-9).tolist())
        first |= {int(d) for d in h["dominated"].deck}
    return [first, set(range(k))] if first != set(range(k)) else [first]


def probes(fld: Field, table: Table, b: Bounds, now: State, group: set, n: int,
           seed: int, budget: Budget | None = None, seen: dict | None = None) -> list[tuple]:
    """One played step per value of a card of the group's decks (+1, or -1 where +1 is out
    of bounds or illegal); the step the other way estimated as its mirror image (the same
    change of every cell of the matrix, opposite sign). Rows: (key, value, matrix, scores
    or None where estimated). Each played step's change of the matrix goes into `seen`."""
    out = []
    k = len(fld.names)
    for key, (shipped, decks) in table.cells.items():
        if not group & decks:
            continue
        if budget is not None and budget.out():
            break  # the steps played so far still compete
        value = now.changes.get(key, shipped)
        steps = [value + d for d in (1, -1) if abs(value + d - shipped) <= b.step]
        steps = [v for v in steps if legal(fld, trial_of(now.changes, key, shipped, v))]
        if not steps:
            continue  # a card table the validator rejects is never played
        sc = play(fld, trial_of(now.changes, key, shipped, steps[0]), n, seed, now.sc, decks,
                  budget)
        M = matrix(sc, k)[0]
        if seen is not None:
            seen[key, value, steps[0]] = M - now.M
        out.append((key, steps[0], M, sc))
        if len(steps) > 1:
            out.append((key, steps[1], np.clip(2 * now.M - M, 0, 1), None))
    return out


def remembered(table: Table, now: State, group: set, seen: dict) -> list[tuple]:
    """The steps played before from the values the cards have now, estimated as the same
    change of the matrix as then (rows as `probes` gives them, never played yet)."""
    out = []
    for (key, frm, to), dM in seen.items():
        shipped, decks = table.cells[key]
        if group & decks and now.changes.get(key, shipped) == frm:
            out.append((key, to, np.clip(now.M + dM, 0, 1), None))
    return out


# How many remembered steps, best estimate first, are played before every card is probed
# again: the estimates go stale as other values change, so a few misses mean a new sweep.
REMEMBERED_TRIES = 3


@dataclass
class Walk:
    """What a greedy step weighs its candidates with, and where it records what it played."""

    fld: Field
    table: Table
    b: Bounds
    target: Target
    n: int
    seed: int
    budget: Budget
    seen: dict

    def cost(self, row: tuple, now: State) -> tuple[float, float]:
        """A candidate's (distance from the aimed target plus the penalty per changed
        value, distance)."""
        trial = trial_of(now.changes, row[0], self.table.cells[row[0]][0], row[1])
        d = distance(row[2], self.target, self.b.margin)
        return d + self.b.penalty * len(trial), d

    def first_that_helps(self, rows: list, now: State, loss: float, tries: int | None = None
                         ) -> tuple | None:
        """The cheapest of the candidates (the first `tries`) that brings the field closer,
        an estimated one played first: (State, key, value, its distance), or None."""
        k = len(self.fld.names)
        ranked = sorted(((self.cost(row, now), row) for row in rows),
                        key=lambda x: (x[0][0], x[1][0], x[1][1]))
        for (_, d), (key, value, M, sc) in ranked[:tries]:
            if d >= loss - 1e-12:
                continue
            shipped, decks = self.table.cells[key]
            trial = trial_of(now.changes, key, shipped, value)
            if sc is None:  # estimated: play it, and take it only if it helps
                if not legal(self.fld, trial):
                    continue
                sc = play(self.fld, trial, self.n, self.seed, now.sc, decks, self.budget)
                M = matrix(sc, k)[0]
                self.seen[key, now.changes.get(key, shipped), value] = M - now.M
                d = distance(M, self.target, self.b.margin)
                if d >= loss - 1e-12:
                    continue
            return State(trial, sc, M), key, value, d
        return None


def step_row(fld: Field, phase: int, rows: list, change: str, now: State, loss: float,
             n: int) -> dict:
    return {"phase": phase, "step": len(rows), "change": change,
            "changed_values": len(now.changes), "distance": loss, "n": n,
            **{f"rate:{name}": float(x) for name, x in zip(fld.names, rates(now.M),
                                                          strict=True)}}


def greedy(fld: Field, table: Table, b: Bounds, changes: dict, n: int, seed: int,
           rows: list, phase: int, progress=None, budget: Budget | None = None) -> dict:
    """Steps of one value by one: of the steps that bring the field closer to the aimed
    target (the health distance), the one with the least distance plus the penalty per
    changed value (a step estimated from its mirror, or from the change it made when it
    was played before, is played before it is taken); the steps played before are tried
    first (a few), then every card is probed again; the cards of the implicated decks
    first, then those of every deck. Until the field reaches the aimed target, no step
    helps, or the budget of matches is spent."""
    k = len(fld.names)
    target = aimed(b, k)
    budget = budget or Budget()
    sc = play(fld, changes, n, seed, budget=budget)
    now = State(changes, sc, matrix(sc, k)[0])
    loss = distance(now.M, target, b.margin)
    seen: dict = {}  # (card value, from, to) -> the change of the matrix it made
    walk = Walk(fld, table, b, target, n, seed, budget, seen)
    while loss > 0 and not budget.out():
        taken = None
        for group in implicated(now.M, target):
            taken = (walk.first_that_helps(remembered(table, now, group, seen), now, loss,
                                           REMEMBERED_TRIES)
                     or walk.first_that_helps(probes(fld, table, b, now, group, n, seed,
                                                     budget, seen), now, loss))
            if taken is not None:
                break
        if taken is None:
            break
        now, key, value, loss = taken
        rows.append(step_row(fld, phase, rows, f"{key}={value}", now, loss, n))
        if progress:
            progress(f"phase {phase}: {key}={value}, {len(now.changes)} values changed, "
                     f"{loss:.4f} from the aimed target (n={n})")
    return prune(fld, table, b, target, now, n, seed, rows, phase, progress, budget)


def prune(fld: Field, table: Table, b: Bounds, target: Target, now: State, n: int,
          seed: int, rows: list, phase: int, progress=None, budget: Budget | None = None
          ) -> dict:
    """Fewer values: each changed value put back to its shipped value, the smallest changes
    first, wherever the field stays as close to the aimed target (the same seeds)."""
    k = len(fld.names)
    loss = distance(now.M, target, b.margin)
    order = sorted(now.changes, key=lambda key: (abs(now.changes[key] - table.cells[key][0]),
                                                 key))
    for key in order:
        trial = {c: v for c, v in now.changes.items() if c != key}
        if not legal(fld, trial):
            continue
        sc = play(fld, trial, n, seed, now.sc, table.cells[key][1], budget)
        M = matrix(sc, k)[0]
        if distance(M, target, b.margin) <= loss + 1e-12:
            now, loss = State(trial, sc, M), distance(M, target, b.margin)
            rows.append(step_row(fld, phase, rows, f"{key} back", now, loss, n))
            if progress:
                progress(f"phase {phase}: {key} back to {table.cells[key][0]}, "
                         f"{len(now.changes)} values changed")
    return now.changes


def held_out(fld: Field, changes: dict, n: int, seed: int, b: Bounds, known: dict | None = None
             ) -> tuple[dict, pd.DataFrame, dict]:
    """The field under the changes on held-out seeds: its scores; each deck's rate against
    the field with its 95% interval and whether it lies inside the band; and the field's
    health there (analysis.health.judge). `known`: the held-out scores of the field's first
    decks under the same changes, whose pairs are not played again."""
    k = len(fld.names)
    new = None if known is None else frozenset(range(k)) - {i for i, _ in known}
    sc = play(fld, changes, n, derived_seed(seed, 1), known, new)
    M, se = matrix(sc, k)
    rate, err = field_rates(M, se)
    health = judge(M, fld.names, b.target(k))
    df = pd.DataFrame({"deck": fld.names, "rate": rate, "lo": rate - Z95 * err,
                       "hi": rate + Z95 * err, "n": 2 * n * (k - 1),
                       "inside": (rate >= b.lo) & (rate <= b.hi), "nash": health["mix"]})
    return sc, df, health


def standing(changes: dict, M: np.ndarray, health: dict, target: Target,
             penalty: float) -> tuple[bool, float]:
    """How a field does on held-out seeds by the search's own objective, less is better:
    short of health first, then its distance from health plus the penalty per changed
    value."""
    return not health["healthy"], distance(M, target) + penalty * len(changes)


def balance_field(fld: Field, b: Bounds, changes: dict, n: int, confirm: int, seed: int,
                  rows: list, phase: int, tries: int = 3, progress=None,
                  budget: Budget | None = None, start: tuple | None = None):
    """Greedy search on training seeds, then the held-out check; a field short of the
    target on held-out seeds sends the search back with twice the matches, up to `tries`
    times or until the budget of matches is spent. `start`: the held-out (scores, table,
    health) of `changes` as they come in; a field healthy there is left as it is, and of
    it and every field the search checked, the one of the least `standing` is kept (a
    search on training seeds can move a value the held-out seeds show was better where it
    was). (changes, held-out scores, held-out table, held-out health)"""
    table = Table(fld, b)
    target, k = b.target(len(fld.names)), len(fld.names)
    best = None if start is None else (changes, *start)
    if best is not None and best[3]["healthy"]:
        return best
    for t in range(tries):
        changes = greedy(fld, table, b, changes, n * 2 ** t, derived_seed(seed, 10 + phase, t),
                         rows, phase, progress, budget)
        sc, check, health = held_out(fld, changes, confirm, seed, b)
        if progress:
            progress(f"phase {phase}: held-out check, {len(changes)} values changed: "
                     + ", ".join(f"{r.deck} {r.rate:.3f}" for r in check.itertuples())
                     + f"; effective decks {health['effective']:.2f}"
                     + ("" if health["healthy"] else "; short: " + "; ".join(health["reasons"])))
        if best is None or (standing(changes, matrix(sc, k)[0], health, target, b.penalty)
                            < standing(best[0], matrix(best[1], k)[0], best[3], target,
                                       b.penalty)):
            best = (changes, sc, check, health)
        if health["healthy"] or (budget is not None and budget.out()):
            break
    if progress and best[0] != changes:
        progress(f"phase {phase}: kept {len(best[0])} values changed, which do better on "
                 f"held-out seeds than the search's last {len(changes)}")
    changes, sc, check, health = best
    if budget is not None and budget.out() and not health["healthy"]:
        health = {**health, "reasons": [*health["reasons"], "the search spent its budget of "
                                        "matches (--budget) before it stopped"]}
    return changes, sc, check, health
