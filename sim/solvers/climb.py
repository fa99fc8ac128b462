"""`cardlab climb`: the strongest decks of a pool, style by style. Each round takes the field's
Nash mix, searches from every style's strongest deck so far (a style: the line of decks
grown from one deck of the starting field) for the deck that scores best against it, and
the best of them on held-out seeds joins the field; the climb ends when no style's deck
beats the mix. What is left says whether the pool has one best style or several."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analysis import meta as analysis
from sim.experiments.meta import Field, in_process
from sim.solvers.deckbuild import (
    Arena,
    Candidate,
    Search,
    check_building,
    confirm,
    derived_seed,
    one_round,
    weights,
)
from sim.store.outputs import experiment_manifest, new_folder, save_tables, write_json

ROUNDS = ["round", "style", "deck", "parent", "score", "lo", "hi", "n", "joins"]
# Tags of derived_seed, each round (and style) with its own: the mix, the search, the
# held-out check, and the grown field's last matrix.
MIX, SEARCH, HELD, LAST = 60, 61, 62, 63


def search_style(fld: Field, w: np.ndarray, best: Candidate, groups: dict, search: Search,
                 seed: int, r: int, k: int) -> tuple[Candidate, float, float, float, int]:
    """A search from one style's strongest deck against the mix `w` (the style's own line:
    its parents never come from another style; `groups`: the building hooks' swap groups),
    the winner confirmed on held-out seeds: (winner, score, lo, hi, n)."""
    parents, rows = [best], []
    for step in range(search.rounds):
        arena = Arena(fld, w, derived_seed(seed, SEARCH, r, k, step))
        parents, _ = one_round(arena, parents, groups, search, derived_seed(seed, SEARCH, r, k),
                               step, rows)
    table = confirm(fld, w, parents[0], dataclasses.replace(search, compare=False),
                    derived_seed(seed, HELD, r, k))[0].iloc[0]
    return parents[0], float(table.score), float(table.lo), float(table.hi), int(table.n)


def cards_of(counts: dict) -> tuple:
    """A deck's cards as one comparable value: two decks of the same counts are one deck."""
    return tuple(sorted((c, n) for c, n in counts.items() if n))


def held_decks(fld: Field) -> dict:
    """The field's decks by their cards (the first of a name where two hold the same)."""
    b = fld.game.building
    out = {}
    for i, name in enumerate(fld.names):
        counts = fld.extra.get(name) or b.counts(fld.pair(i, i), 0)
        out.setdefault(cards_of(counts), name)
    return out


def climb(fld: Field, rounds: int = 6, search: Search = Search(), matches: int = 1000,
          seed: int = 1, results="results", run_id: str | None = None,
          progress=None) -> dict:
    """Up to `rounds` rounds; each style's search against the field's Nash mix (`matches` a
    pair for the mix), the best on held-out seeds joining the field when its interval lies
    above one half (it beats the mix) and its cards are no deck's of the field; the grown
    field's matrix and Nash mix at the end, with each style's strongest deck in it once
    (`kept`: the styles whose strongest is a deck of the field, and that deck). Writes
    rounds.parquet (every style's find, each round), decks.parquet and matrix.parquet (the
    grown field), found.json (the decks that joined and each style's strongest, as card
    counts) and the manifest."""
    check_building(fld.game, "climb")
    fld.check()
    search.check()
    path = new_folder(results, run_id, "climb")
    b = fld.game.building
    groups = b.groups(fld.pair(0, 0))
    style_of = {name: name for name in fld.names}
    best = {name: Candidate(name, b.counts(fld.pair(i, i), 0), name)
            for i, name in enumerate(fld.names)}
    rows, found, converged = [], {}, False
    held = held_decks(fld)  # the field's decks by their cards, one added as a deck joins
    for r in range(rounds):
        w = weights(fld, "nash", derived_seed(seed, MIX, r), matches)
        finds = []
        for k, style in enumerate(best):
            deck, score, lo, hi, n = search_style(fld, w, best[style], groups, search, seed,
                                                   r, k)
            best[style] = Candidate(f"{style}-{r}", deck.counts, style)
            finds.append({"round": r, "style": style, "deck": f"{style}-{r}",
                          "parent": deck.parent, "score": score, "lo": lo, "hi": hi, "n": n,
                          "joins": False})
        # A find with the cards of a deck of the field is that deck, no new one: it never
        # joins again (its own search found nothing better).
        new_finds = [f for f in finds if cards_of(best[f["style"]].counts) not in held]
        top = max(new_finds or finds, key=lambda f: (f["score"], f["style"]))
        converged = top["lo"] <= 0.5 or not new_finds
        if not converged:
            top["joins"] = True
            name = f"climb-{r}"
            counts = best[top["style"]].counts
            found[name] = {"style": top["style"], "counts": counts}
            style_of[name] = top["style"]
            fld = Field(fld.game, fld.folder, [*fld.names, name], fld.policy, fld.rules,
                        fld.sets, {**fld.extra, name: counts})
            held[cards_of(counts)] = name
        rows += finds
        if progress:
            progress(r, top, converged)
        if converged:
            break
    # Each style's strongest deck joins the last matrix too, so that the answer shows the
    # top of every style beside the others, not only the winners; a style whose strongest
    # is a deck of the field already (its own, where its search found nothing better, or
    # one that joined) is that deck, named in `kept`, not a second copy of it.
    tops, kept = {}, {}
    for style, c in best.items():
        cards = cards_of(c.counts)
        if cards in held:
            kept[style] = held[cards]
        else:
            held[cards] = f"{style}-top"
            tops[f"{style}-top"] = c.counts
    style_of |= {f"{style}-top": style for style in best}
    fld = Field(fld.game, fld.folder, [*fld.names, *tops], fld.policy, fld.rules, fld.sets,
                {**fld.extra, **tops})
    last = analysis.summary(in_process(fld, matches, derived_seed(seed, LAST)), fld.names,
                            100, seed)
    decks = last["decks"].assign(style=[style_of[n] for n in fld.names])
    in_mix = sorted({s for s, x in zip(decks["style"], decks.nash, strict=True) if x >= 0.05})
    manifest = {**experiment_manifest(fld.game, fld.pair(0, 1), seed, matches, "climb"),
                "decks": list(fld.names), "rounds": rounds, "rounds_played": r + 1,
                "search": search.__dict__, "converged": converged,
                "styles_in_mix": in_mix, "effective_decks": last["effective_decks"],
                "kept": kept}
    write_json(path / "found.json", found | {n: {"style": style_of[n], "counts": c}
                                             for n, c in tops.items()})
    save_tables(path, {"rounds": pd.DataFrame(rows, columns=ROUNDS), "decks": decks,
                       "matrix": last["matrix"]}, manifest)
    return {"path": path, "rounds": pd.DataFrame(rows, columns=ROUNDS), "summary": last,
            "decks": decks, "found": found, "tops": tops, "kept": kept,
            "converged": converged, "styles": in_mix, "field": list(fld.names)}
