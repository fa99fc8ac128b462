"""Balancing a whole set: the fewest card-value changes, within the designer's bounds, that
bring every deck of a field inside a win-rate band on held-out seeds. A greedy coordinate
search on common random numbers (one step of one value at a time, a penalty for each value
changed), every changed card table checked by the validator before it plays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.stats import Z95
from sim import legality
from sim.deckbuild import derived_seed
from sim.meta import Field, scores
from sim.problems import InputError, Problem


@dataclass(frozen=True)
class Bounds:
    """What the designer allows: the card fields that may change, by at most `step` from
    the shipped value, and the band every deck's win rate against the field must reach."""

    fields: tuple[str, ...]
    lo: float = 0.45
    hi: float = 0.55
    step: int = 2
    penalty: float = 0.005  # win rate a change of a new value must buy (sparsity)
    margin: float = 0.01  # how far inside the band the search aims on training seeds

    def check(self) -> None:
        if not 0 <= self.lo < self.hi <= 1:
            raise InputError([Problem("--band", 0, f"a band LO..HI inside 0 .. 1 with LO < HI, "
                                      f"got {self.lo}..{self.hi}")])
        if not self.fields:
            raise InputError([Problem("--fields", 0, "name at least one card field")])
        if self.step < 1:
            raise InputError([Problem("--max-change", 0, "at least 1")])
        if not 0 <= self.margin < 0.5:
            raise InputError([Problem("--margin", 0, f"in 0 .. 0.5, got {self.margin}")])


def parse_band(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("..")
    try:
        return float(lo), float(hi)
    except ValueError:
        raise InputError([Problem("--band", 0, f"expects LO..HI, e.g. 0.45..0.55, got "
                                  f"{text!r}")]) from None


def field_rates(sc: dict, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Each deck's mean score against the other decks (both seats), and its standard error."""
    from analysis.meta import matrix

    M, se = matrix(sc, k)
    rate = np.array([np.mean([M[i, j] for j in range(k) if j != i]) for i in range(k)])
    err = np.array([np.sqrt(sum(se[i, j] ** 2 for j in range(k) if j != i)) / (k - 1)
                    for i in range(k)])
    return rate, err


def outside(rate: np.ndarray, b: Bounds) -> float:
    """How far the decks lie outside the band, summed."""
    return float(np.sum(np.maximum(0, b.lo - rate) + np.maximum(0, rate - b.hi)))


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
        held = {}
        for i in range(len(fld.names)):
            for cid in self.deck_cards(fld, i):
                if kinds.get(cid) in game.schema.flag_kinds:
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
    def deck_cards(fld: Field, i: int) -> list[str]:
        if fld.game.building is not None:
            return list(fld.game.building.counts(fld.pair(i, i), 0))
        d = fld.game.describe(fld.pair(i, i))["decks"][0]
        return [c for c, _ in d.get("cards", [])]


def sets_of(changes: dict[str, int]) -> tuple[str, ...]:
    return tuple(f"{k}={v}" for k, v in sorted(changes.items()))


def play(fld: Field, changes: dict, n: int, seed: int, base: dict | None = None,
         decks: frozenset | None = None) -> dict:
    """Every ordered pair's first-seat scores under the changes; only the pairs with a deck
    in `decks` are played again, the others taken from `base` (the same seeds, the same
    cards: the same matches)."""
    sets = sets_of(changes)
    out = {}
    for i, j in fld.ordered():
        if base is not None and decks is not None and i not in decks and j not in decks:
            out[i, j] = base[i, j]
            continue
        rec = fld.game.run_batch(fld.pair(i, j, sets), n, seed)
        out[i, j] = scores(rec.matches[:, 0], 0)
    return out


def legal(fld: Field, changes: dict) -> bool:
    """Whether the game takes the values (its --set reader) and the validator accepts the
    card table and every deck of the field under them."""
    k = len(fld.names)
    # Pairs (0, 1), (2, 3), ... hold every deck once; the play loads them anyway.
    pairs = [(i, (i + 1) % k) for i in range(0, k, 2)]
    try:
        return not any(legality.problems(fld.game, fld.pair(i, j, sets_of(changes)))
                       for i, j in pairs)
    except InputError:
        return False


def aim(b: Bounds) -> Bounds:
    """The band the search aims at on training seeds: `margin` inside the designer's on
    each side, so that a deck the search leaves at an edge is not outside it on held-out
    seeds by noise alone."""
    import dataclasses

    m = min(b.margin, (b.hi - b.lo) / 4)
    return dataclasses.replace(b, lo=b.lo + m, hi=b.hi - m)


def trial_of(changes: dict, key: str, shipped, value) -> dict:
    trial = {**changes, key: value}
    if value == shipped:
        del trial[key]
    return trial


def probes(fld: Field, table: Table, b: Bounds, changes: dict, group: set, n: int, seed: int,
           base: dict, rate: np.ndarray) -> list[tuple]:
    """One played step per value of a card of the group's decks (+1, or -1 where +1 is out
    of bounds or illegal); the step the other way estimated as its mirror image (the same
    change of every deck's rate, opposite sign). Rows: (key, value, rates, played)."""
    out = []
    k = len(fld.names)
    for key, (shipped, decks) in table.cells.items():
        if not group & decks:
            continue
        now = changes.get(key, shipped)
        steps = [now + d for d in (1, -1) if abs(now + d - shipped) <= b.step]
        steps = [v for v in steps if legal(fld, trial_of(changes, key, shipped, v))]
        if not steps:
            continue  # a card table the validator rejects is never played
        sc = play(fld, trial_of(changes, key, shipped, steps[0]), n, seed, base, decks)
        r, _ = field_rates(sc, k)
        out.append((key, steps[0], r, sc))
        if len(steps) > 1:
            out.append((key, steps[1], 2 * rate - r, None))
    return out


def greedy(fld: Field, table: Table, b: Bounds, changes: dict, n: int, seed: int,
           rows: list, phase: int, progress=None) -> dict:
    """Steps of one value by one: of the steps that bring the decks closer to the aimed
    band, the one with the least distance plus the penalty per changed value (a step
    estimated from its mirror is played before it is taken); the cards of the deck
    furthest out first, then those of every deck outside. Until every deck is inside or no
    step helps."""
    k = len(fld.names)
    target = aim(b)
    base = play(fld, changes, n, seed)
    rate, _ = field_rates(base, k)
    while outside(rate, target) > 0:
        far = np.maximum(0, target.lo - rate) + np.maximum(0, rate - target.hi)
        taken = None
        for group in ({int(np.argmax(far))}, set(np.flatnonzero(far > 0).tolist())):
            rows_ = probes(fld, table, b, changes, group, n, seed, base, rate)

            def cost(row, now=changes):
                trial = trial_of(now, row[0], table.cells[row[0]][0], row[1])
                return outside(row[2], target) + b.penalty * len(trial)

            for key, value, r, sc in sorted(rows_, key=lambda x: (cost(x), x[0], x[1])):
                if outside(r, target) >= outside(rate, target) - 1e-12:
                    continue
                trial = trial_of(changes, key, table.cells[key][0], value)
                if sc is None:  # estimated: play it, and take it only if it helps
                    sc = play(fld, trial, n, seed, base, table.cells[key][1])
                    r, _ = field_rates(sc, k)
                    if outside(r, target) >= outside(rate, target) - 1e-12:
                        continue
                taken = (trial, sc, r, key, value)
                break
            if taken is not None:
                break
        if taken is None:
            break
        changes, base, rate = taken[0], taken[1], taken[2]
        rows.append({"phase": phase, "step": len(rows), "change": f"{taken[3]}={taken[4]}",
                     "changed_values": len(changes), "outside": outside(rate, target),
                     "n": n, **{f"rate:{name}": float(x) for name, x in zip(fld.names, rate,
                                                                            strict=True)}})
        if progress:
            progress(f"phase {phase}: {taken[3]}={taken[4]}, {len(changes)} values changed, "
                     f"{outside(rate, target):.4f} outside the aimed band (n={n})")
    return prune(fld, table, target, changes, n, seed, base, rate, rows, phase, progress)


def prune(fld: Field, table: Table, target: Bounds, changes: dict, n: int, seed: int,
          base: dict, rate: np.ndarray, rows: list, phase: int, progress=None) -> dict:
    """Fewer values: each changed value put back to its shipped value, the smallest changes
    first, wherever the field stays as close to the aimed band (the same seeds)."""
    k = len(fld.names)
    order = sorted(changes, key=lambda key: (abs(changes[key] - table.cells[key][0]), key))
    for key in order:
        trial = {c: v for c, v in changes.items() if c != key}
        if not legal(fld, trial):
            continue
        sc = play(fld, trial, n, seed, base, table.cells[key][1])
        r, _ = field_rates(sc, k)
        if outside(r, target) <= outside(rate, target) + 1e-12:
            changes, base, rate = trial, sc, r
            rows.append({"phase": phase, "step": len(rows), "change": f"{key} back",
                         "changed_values": len(changes), "outside": outside(rate, target),
                         "n": n, **{f"rate:{name}": float(x)
                                    for name, x in zip(fld.names, rate, strict=True)}})
            if progress:
                progress(f"phase {phase}: {key} back to {table.cells[key][0]}, "
                         f"{len(changes)} values changed")
    return changes


def held_out(fld: Field, changes: dict, n: int, seed: int, b: Bounds) -> tuple[dict, pd.DataFrame]:
    """The field under the changes on held-out seeds: its scores, and each deck's rate
    against the field with its 95% interval and whether it lies inside the band."""
    sc = play(fld, changes, n, derived_seed(seed, 1))
    rate, se = field_rates(sc, len(fld.names))
    df = pd.DataFrame({"deck": fld.names, "rate": rate, "lo": rate - Z95 * se,
                       "hi": rate + Z95 * se, "n": 2 * n * (len(fld.names) - 1),
                       "inside": (rate >= b.lo) & (rate <= b.hi)})
    return sc, df


def balance_field(fld: Field, b: Bounds, changes: dict, n: int, confirm: int, seed: int,
                  rows: list, phase: int, tries: int = 3, progress=None):
    """Greedy search on training seeds, then the held-out check; a deck outside the band on
    held-out seeds sends the search back with twice the matches, up to `tries` times."""
    table = Table(fld, b)
    for t in range(tries):
        changes = greedy(fld, table, b, changes, n * 2 ** t, derived_seed(seed, 10 + phase, t),
                         rows, phase, progress)
        sc, check = held_out(fld, changes, confirm, seed, b)
        if progress:
            progress(f"phase {phase}: held-out check, {len(changes)} values changed: "
                     + ", ".join(f"{r.deck} {r.rate:.3f}" for r in check.itertuples()))
        if check.inside.all():
            break
    return changes, sc, check


def balance(fld: Field, b: Bounds, matches: int = 300, confirm: int = 2000, seed: int = 1,
            adversarial: int = 1, search=None, results="results", run_id: str | None = None,
            write: bool = False, progress=None) -> dict:
    """Balance the field; then, up to `adversarial` times, deckbuild against the balanced
    field: a found deck outside the band joins the field and balancing runs again. Writes
    steps.parquet, heldout.parquet, rounds.parquet, the matrices before and after (with
    their heatmaps), the patch (cards.diff and a patched copy of the folder) and the
    manifest into one results folder."""
    import dataclasses

    import matplotlib.pyplot as plt

    from analysis import meta as analysis
    from sim.deckbuild import Search
    from sim.deckbuild import deckbuild as build
    from sim.outputs import experiment_manifest, new_folder, save_tables
    from sim.patch import write_patch

    b.check()
    fld.check()
    Table(fld, b)  # a field that is not a card value fails here, before any match
    search = search or Search(rounds=3, mutants=8, start=100, confirm=confirm)
    path = new_folder(results, run_id, "balance")
    shipped_names = list(fld.names)
    before, before_check = held_out(fld, {}, confirm, seed, b)
    steps, rounds, changes = [], [], {}
    changes, after, check = balance_field(fld, b, changes, matches, confirm, seed, steps, 0,
                                          progress=progress)
    for r in range(adversarial):
        if not check.inside.all() or fld.game.building is None:
            break
        balanced = fld.with_names(fld.names, fld.sets + sets_of(changes))
        found = build(balanced, "field", dataclasses.replace(search, compare=False),
                      derived_seed(seed, 50 + r), path / "adversarial", f"round-{r}")
        row = found["confirm"].iloc[0]  # the found deck on the search's held-out seeds
        out = not b.lo <= row.score <= b.hi
        rounds.append({"round": r, "deck": f"found-{r}", "score": float(row.score),
                       "lo": float(row.lo), "hi": float(row.hi), "n": int(row.n),
                       "outside_band": bool(out), "joins_field": bool(out),
                       "cards": ", ".join(f"{n} {c}" for c, n in sorted(
                           found["found"].counts.items()))})
        if progress:
            progress(f"adversarial round {r}: found deck {row.score:.3f} ({row.lo:.3f} .. "
                     f"{row.hi:.3f}) against the balanced field")
        if not out:
            break
        extra = {**fld.extra, f"found-{r}": found["found"].counts}
        fld = Field(fld.game, fld.folder, [*fld.names, f"found-{r}"], fld.policy, fld.rules,
                    fld.sets, extra)
        changes, after, check = balance_field(fld, b, changes, matches, confirm, seed, steps,
                                              r + 1, progress=progress)
    base_names = fld.names
    before_full = before if len(base_names) == len(shipped_names) else held_out(
        fld, {}, confirm, seed, b)[0]
    res_before = analysis.summary(before_full, base_names, 100, seed)
    res_after = analysis.summary(after, base_names, 100, seed)
    for tag, res in (("before", res_before), ("after", res_after)):
        ax = analysis.plot_heatmap(res["matrix"], base_names,
                                   title=f"{tag}: row deck's win rate against the column deck")
        ax.figure.savefig(path / f"heatmap_{tag}.png", dpi=110, bbox_inches="tight")
        plt.close(ax.figure)
    copy, diff = write_patch(fld.folder, changes, path, write) if changes else (None, "")
    check = check.assign(before=before_check.set_index("deck").rate.reindex(check.deck).values)
    manifest = {**experiment_manifest(fld.game, fld.pair(0, 1), seed, matches, "balance"),
                "decks": shipped_names, "field": base_names, "band": [b.lo, b.hi],
                "fields": list(b.fields), "max_change": b.step, "penalty": b.penalty,
                "confirm": confirm, "changes": changes, "changed_values": len(changes),
                "adversarial_rounds": len(rounds), "inside": bool(check.inside.all()),
                "patched_folder": str(copy) if copy else None, "written": bool(write and
                                                                            changes)}
    save_tables(path, {"steps": pd.DataFrame(steps), "heldout": check,
                       "rounds": pd.DataFrame(rounds, columns=[
                           "round", "deck", "score", "lo", "hi", "n", "outside_band",
                           "joins_field", "cards"]),
                       "matrix_before": res_before["matrix"], "matrix_after": res_after["matrix"]},
                manifest)
    return {"path": path, "changes": changes, "heldout": check, "rounds": pd.DataFrame(rounds),
            "steps": pd.DataFrame(steps), "diff": diff, "before": res_before,
            "after": res_after, "field": base_names}
