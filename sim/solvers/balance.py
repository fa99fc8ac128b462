"""`cardlab balance`: the field brought to health by the search of `sim.solvers.balance_search`,
then adversarial deck-building rounds judged by whether the deck they find takes over the Nash
mix; where the target is out of reach, the best reached and the cards that carry the leading
deck. Every table, figure, the patch and the manifest go into one results folder."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analysis import meta as analysis
from analysis.health import TAKES_OVER
from analysis.meta import plot_heatmap
from sim.core.stats import Z95
from sim.experiments.meta import Field
from sim.kit import legality
from sim.kit.patch import write_patch
from sim.solvers.balance_bounds import Bounds, Budget, parse_band
from sim.solvers.balance_search import Table, balance_field, held_out, sets_of
from sim.solvers.deckbuild import Arena, Candidate, Search, derived_seed
from sim.solvers.deckbuild import deckbuild as build
from sim.store.outputs import experiment_manifest, new_folder, save_tables

__all__ = ["Bounds", "balance", "parse_band"]

CARRIERS = ["deck", "card", "name", "copies", "worth", "lo", "hi", "n"]


def resolved(b: Bounds, k: int) -> Bounds:
    """The bounds with the shipped field's support, diversity and size written in, so that
    a found deck that joins the field does not move the target: it joins as a challenger,
    which may end weak or dominated but must not take the Nash mix over."""
    t = b.target(k)
    return dataclasses.replace(b, support=t.support, diversity=t.diversity, core=k)


def adversarial_round(fld: Field, b: Bounds, changes: dict, search, seed: int, r: int,
                      confirm: int, path, known: dict) -> tuple[dict, dict]:
    """Deckbuild against the balanced field (its Nash mix where the target is health, the
    field evenly where it is the band alone); the found deck on held-out seeds beside the
    field (`known`: the field's held-out scores, whose pairs are not played again). (row of
    rounds.parquet, the found deck's counts)"""
    balanced = fld.with_names(fld.names, fld.sets + sets_of(changes))
    against = "nash" if b.health and len(fld.names) >= 3 else "field"
    found = build(balanced, against, dataclasses.replace(search, compare=False),
                  derived_seed(seed, 50 + r), path / "adversarial", f"round-{r}")
    row = found["confirm"].iloc[0]  # the found deck on the search's held-out seeds
    name = f"found-{r}"
    grown = Field(fld.game, fld.folder, [*fld.names, name], fld.policy, fld.rules,
                  fld.sets, {**fld.extra, name: found["found"].counts})
    _, check, health = held_out(grown, changes, confirm, seed, b, known)
    weight = float(health["mix"][-1])
    joins = weight >= TAKES_OVER if b.health and len(fld.names) >= 3 else (
        not b.lo <= row.score <= b.hi)
    return ({"round": r, "deck": name, "against": against, "score": float(row.score),
             "lo": float(row.lo), "hi": float(row.hi), "n": int(row.n),
             "field_rate": float(check.rate.iloc[-1]), "nash": weight,
             "outside_band": bool(not b.lo <= row.score <= b.hi), "joins_field": bool(joins),
             "cards": ", ".join(f"{n} {c}" for c, n in sorted(found["found"].counts.items()))},
            found["found"].counts)


def carriers(fld: Field, changes: dict, leader: int, n: int, seed: int) -> pd.DataFrame:
    """What carries the leading deck: each of its cards taken out by the game's own
    ablation (its filler in its place), the score it adds to the deck against the rest of
    the field, paired on the same held-out matches."""
    if fld.game.building is None:
        return pd.DataFrame(columns=CARRIERS)
    balanced = fld.with_names(fld.names, fld.sets + sets_of(changes))
    w = np.full(len(fld.names), 1 / (len(fld.names) - 1))
    w[leader] = 0
    arena = Arena(balanced, w, derived_seed(seed, 2))
    b = fld.game.building
    counts = b.counts(balanced.pair(leader, leader), 0)
    whole = Candidate(fld.names[leader], counts, fld.names[leader])
    arena.play(whole, n)
    rows = []
    for v in legality.split(fld.game, fld.game.ablations(balanced.pair(leader, leader)))[0]:
        if v.seat != 0 or v.card not in counts:
            continue
        c = Candidate(f"without-{v.card}", b.counts(v.matchup, 0), fld.names[leader])
        arena.play(c, n)
        d, se = arena.score(whole, c)
        rows.append({"deck": fld.names[leader], "card": v.card, "name": v.name,
                     "copies": counts[v.card], "worth": d, "lo": d - Z95 * se,
                     "hi": d + Z95 * se, "n": arena.matches(whole, c)})
    df = pd.DataFrame(rows, columns=CARRIERS)
    return df.sort_values(["worth", "card"], ascending=[False, True]).reset_index(drop=True)


def write_heatmaps(path, names: list[str], before: dict, after: dict) -> None:
    """heatmap_before.png and heatmap_after.png of the held-out matrices."""
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib.pyplot as plt

    for tag, res in (("before", before), ("after", after)):
        ax = plot_heatmap(res["matrix"], names,
                          title=f"{tag}: row deck's win rate against the column deck")
        ax.figure.savefig(path / f"heatmap_{tag}.png", dpi=110, bbox_inches="tight")
        plt.close(ax.figure)


def patch_files(fld: Field, changes: dict, path, write: bool) -> tuple:
    """The patch as files (a patched copy of the folder and cards.diff; the folder's own
    cards.csv with `write`), each value in the cells the game writes it to: (copy, diff),
    (None, "") when nothing changed."""
    if not changes:
        return None, ""
    cells = fld.game.tuning.csv_cells
    written = ({k: cells(fld.pair(0, 1), k, v) for k, v in changes.items()} if cells
               else changes)
    return write_patch(fld.folder, written, path, write)


def balance(fld: Field, b: Bounds, matches: int = 1000, confirm: int = 4000, seed: int = 1,
            adversarial: int = 2, search=None, results="results", run_id: str | None = None,
            write: bool = False, progress=None, budget: int | None = None) -> dict:
    """Balance the field; then, up to `adversarial` times, deckbuild against the balanced
    field: a found deck that takes over the Nash mix (outside the band, for a target of
    the band alone) joins the field and balancing runs again. Writes steps.parquet,
    heldout.parquet, rounds.parquet, carriers.parquet (where the target is not reached),
    the matrices before and after (with their heatmaps), the patch (cards.diff and a
    patched copy of the folder) and the manifest into one results folder. `budget`: the
    training matches the searches may play in all (the held-out checks and the rounds come
    on top)."""
    b.check()
    fld.check()
    b = resolved(b, len(fld.names))
    Table(fld, b)  # a field that is not a card value fails here, before any match
    # As hard as `cardlab deckbuild` looks by default: a shorter search missed a deck of
    # the pool that took a healthy field over.
    search = search or Search(rounds=6, mutants=12, start=100, confirm=confirm)
    search.check()  # the adversarial rounds' search, refused before a folder is made
    path = new_folder(results, run_id, "balance")
    spent = Budget(budget)
    shipped_names = list(fld.names)
    before, before_check, before_health = held_out(fld, {}, confirm, seed, b)
    steps, rounds, changes = [], [], {}
    changes, after, check, health = balance_field(
        fld, b, changes, matches, confirm, seed, steps, 0, progress=progress, budget=spent,
        start=(before, before_check, before_health))
    carry = None  # the field whose leading deck the answer names, when not reached
    for r in range(adversarial):
        if not health["healthy"] or fld.game.building is None:
            break
        row, counts = adversarial_round(fld, b, changes, search, seed, r, confirm, path,
                                        after)
        rounds.append(row)
        if progress:
            progress(f"adversarial round {r}: found deck {row['score']:.3f} ({row['lo']:.3f} "
                     f".. {row['hi']:.3f}) against the balanced field, weight "
                     f"{row['nash']:.2f} in the Nash mix with it")
        if not row["joins_field"]:
            break
        grown = Field(fld.game, fld.folder, [*fld.names, row["deck"]], fld.policy, fld.rules,
                      fld.sets, {**fld.extra, row["deck"]: counts})
        again = balance_field(grown, b, changes, matches, confirm, seed, steps, r + 1,
                              progress=progress, budget=spent)
        if again[3]["healthy"]:
            fld, (changes, after, check, health) = grown, again
            continue
        # No change within bounds answers the found deck: the last healthy patch stands,
        # and the answer says that a deck of the pool takes the field over.
        carry = (grown, changes, len(grown.names) - 1)  # the found deck
        health = {**health, "healthy": False, "reasons": [
            *health["reasons"], f"{row['deck']}, found by adversarial round {r}, takes over "
            f"the Nash mix of the field with it (weight {row['nash']:.2f}) and no change "
            f"within --max-change and --budget answers it ({row['cards']})"]}
        break
    base_names = fld.names
    before_full = before if len(base_names) == len(shipped_names) else held_out(
        fld, {}, confirm, seed, b)[0]
    res_before = analysis.summary(before_full, base_names, 100, seed)
    res_after = analysis.summary(after, base_names, 100, seed)
    lead_field, lead_changes, leader = carry or (fld, changes, int(np.argmax(health["mix"])))
    carried = (pd.DataFrame(columns=CARRIERS) if health["healthy"] else
               carriers(lead_field, lead_changes, leader, confirm, seed))
    write_heatmaps(path, base_names, res_before, res_after)
    copy, diff = patch_files(fld, changes, path, write)
    check = check.assign(before=before_check.set_index("deck").rate.reindex(check.deck).values)
    t = b.target(len(shipped_names))
    m0 = fld.pair(0, 1)
    shipped = {k: fld.game.tuning.card_value(m0, k) for k in changes}
    manifest = {**experiment_manifest(fld.game, fld.pair(0, 1), seed, matches, "balance"),
                "decks": shipped_names, "field": base_names, "band": [b.lo, b.hi],
                "health": t.health, "support": t.support, "diversity": t.diversity,
                "fields": list(b.fields), "max_change": b.step, "penalty": b.penalty,
                "confirm": confirm, "budget": budget, "training_matches": spent.spent,
                "changes": changes, "shipped_values": shipped, "changed_values": len(changes),
                "adversarial_rounds": len(rounds),
                "inside": bool(check.inside[:len(shipped_names)].all()),
                "reached": bool(health["healthy"]), "short": health["reasons"],
                "effective_before": before_health["effective"],
                "effective_after": health["effective"],
                "patched_folder": str(copy) if copy else None,
                "written": bool(write and changes)}
    save_tables(path, {"steps": pd.DataFrame(steps), "heldout": check,
                       "rounds": pd.DataFrame(rounds, columns=[
                           "round", "deck", "against", "score", "lo", "hi", "n",
                           "field_rate", "nash", "outside_band", "joins_field", "cards"]),
                       "carriers": carried,
                       "matrix_before": res_before["matrix"], "matrix_after": res_after["matrix"]},
                manifest)
    return {"path": path, "changes": changes, "shipped": shipped, "heldout": check,
            "rounds": pd.DataFrame(rounds),
            "steps": pd.DataFrame(steps), "diff": diff, "before": res_before,
            "after": res_after, "field": base_names, "health": health,
            "training_matches": spent.spent,
            "health_before": before_health, "carriers": carried, "target": t}
