"""How well the verdicts recover planted truths: strong buffs, crippling nerfs (the card with
no effect) and clones planted one at a time on the flagged cards of a matchup, each judged
by the verdicts on the same seeds, with the recovery rate of each class and its interval."""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core.stats import Z95, wilson
from sim.experiments import par
from sim.experiments.arms import seat_local
from sim.experiments.verdicts import Precision, card_verdicts, subjects
from sim.kit import legality

# What a plant must come back as: a nerf (the card with no effect) may also come back dead,
# when no policy will play it any more, the strongest form of the same finding.
EXPECTED = {"buff": {"over-powered"}, "nerf": {"under-powered", "dead"}}
# What a verdict must never say of a plant: a stronger card under-powered, a card with no
# effect balanced or over-powered.
CONTRADICTS = {"buff": {"under-powered"}, "nerf": {"balanced", "over-powered"}}


@dataclass(frozen=True)
class Plant:
    """One planted change: a buff or a nerf of a card's numbers, or a card made a clone of
    another card of its deck and kind (`like`)."""

    what: str
    seat: int
    card: str
    values: dict = dataclasses.field(default_factory=dict)
    like: str = ""

    def apply(self, game, m):
        """The matchup with the plant on this seat's copies (another seat's stay as they
        were)."""
        m = seat_local(game, m, self.seat, self.card)
        if self.what != "clone":
            return game.power.with_values(m, self.values)
        ids = list(m.pool.ids)
        x, y = ids.index(self.card), ids.index(self.like)
        cells = {(x, col): int(m.pool.table[y, col]) for col in range(m.pool.table.shape[1])}
        return dataclasses.replace(m, pool=m.pool.with_values(cells))


# Verdicts that say the matchup cannot judge a card: a plant there is no truth to find.
UNJUDGED = {"untested here", "dead", "no par"}


def plan(game, m, count: int, seed: int,
         classes: tuple[str, ...] = ("buff", "nerf", "clone"),
         judged: set | dict | None = None, refused: dict | None = None) -> list[Plant]:
    """Up to `count` buffs, `count` nerfs and `count` clones on cards drawn (seeded) from the
    flagged cards of every seat's deck (of those, the (seat, card) pairs in `judged` when
    given: the cards the matchup's play tests, one set for every class or {class: set}),
    each one the validator accepts (a card whose planted numbers break a deck rule, such as
    a copy limit, is passed over for the next); a clone copies another such card of the
    same deck and kind whose numbers differ. `refused`, when given, gets {class: ["card
    (deck): the validator's reason", ...]} for each card tried whose plants it refused."""
    power = game.power
    cards = power.cards(m)
    tests = judged if isinstance(judged, dict) else dict.fromkeys(classes, judged)

    def tested(what, s):
        return tests.get(what) is None or (s.seat, s.card) in tests[what]

    subs = [s for s in subjects(game, m, cards, set(game.schema.flag_kinds),
                                game.describe(m).get("starting", []))
            if any(tested(what, s) for what in tests)]
    rng = np.random.default_rng(seed)
    by_id = cards.set_index("id")
    kinds = dict(zip(cards.id, cards.kind, strict=True))

    def first_legal(what, alts):
        """The first of a card's plants the validator accepts; else None, with its reasons
        noted in `refused`."""
        why = []
        for p in alts:
            found = legality.problems(game, p.apply(game, m))
            if not found:
                return p
            why.append(legality.reason(found))
        if why and refused is not None:
            refused.setdefault(what, []).append(
                f"{alts[0].card} ({m.decks[alts[0].seat].name}): {'; '.join(dict.fromkeys(why))}")
        return None

    def buffs(s):
        # Every number of the card's kind moved; where the validator will not have one of
        # them on this card (a strike action with a stat), the card's own nonzero numbers.
        full = par.buffed_values(power, cards, s.card)
        own = {k: v for k, v in full.items() if int(by_id.at[s.card, k[1]]) != 0}
        return [Plant("buff", s.seat, s.card, v) for v in (full, own)
                if v and par.differs(v, cards)]

    def nerfs(s):
        local = seat_local(game, m, s.seat, s.card)
        values = legality.weakest_legal(game, local, par.dead_values(power, cards, s.card), cards)
        return [Plant("nerf", s.seat, s.card, values)] if par.differs(values, cards) else []

    # The draws are made first, in this order, whichever classes are asked for; each card's
    # plants are then made and checked only when needed (the first legal one is taken).
    orders = {"buff": rng.permutation(len(subs)), "nerf": rng.permutation(len(subs))}
    pairs = [(a, b) for a in subs for b in subs
             if a.seat == b.seat and a.card != b.card and kinds[a.card] == kinds[b.card]
             and tested("clone", a) and tested("clone", b)
             and par.differs({(a.card, f): int(by_id.at[b.card, f]) for f in power.stronger},
                             cards)]
    alternatives = {
        "buff": (buffs(subs[i]) for i in orders["buff"] if tested("buff", subs[i])),
        "nerf": (nerfs(subs[i]) for i in orders["nerf"] if tested("nerf", subs[i])),
        "clone": ([Plant("clone", pairs[i][0].seat, pairs[i][0].card, like=pairs[i][1].card)]
                  for i in rng.permutation(len(pairs)))}
    out = []
    for what in classes:
        made = (first_legal(what, alts) for alts in alternatives[what])
        out += list(itertools.islice((p for p in made if p is not None), count))
    return out


def calibrate(game, m, folder, seed: int, count: int = 10,
              precision: Precision = Precision(), progress=None,
              classes: tuple[str, ...] = ("buff", "nerf", "clone"), trained: str | None = None,
              base: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per plant: its verdict, whether it came back as planted, and its size: how
    far it moved the card's worth against par, and whether that is more than the run could
    detect (powered); one row per class: planted, recovered, rate with its Wilson interval,
    the same among the powered plants, contradictions, and the plants set aside: skipped,
    and untested (the plant came back untested here: it moved nothing its run could see,
    so it is no truth a verdict could find). The unchanged
    matchup's verdicts first: they give the game's gap and par (kept for every plant, so
    that a plant moves neither the margin nor any card's yardstick) and the label each
    clone's original had alone (like_before); a clone is judged beside its original, one
    card to the rules (sim.experiments.verdicts.twins), and must get the original's label
    in that run. `base`: those verdicts, when already made."""
    if base is None:
        base = card_verdicts(game, m, seed, precision, folder=folder, trained=trained)
    labels = {(r.seat, r.card): r.verdict for r in base.itertuples()}
    worth = {(r.seat, r.card): r.relative for r in base.itertuples()}
    fixed = kept_gaps(precision, base)
    shipped = game.power.cards(m)  # par as the unchanged pool sets it, for every plant
    where = testable(base)
    rows, refused = [], {}
    planned = plan(game, m, count, seed, classes, where, refused)
    for k, plant in enumerate(planned):
        pm = plant.apply(game, m)  # plan makes only plants the validator accepts
        row = {"class": plant.what, "seat": plant.seat, "deck": m.decks[plant.seat].name,
               "card": plant.card, "like": plant.like,
               "change": ", ".join(f"{f} {v}" for (_, f), v in plant.values.items()),
               "before": labels.get((plant.seat, plant.card), "")}
        # A buff or a nerf keeps the card's own par (its yardstick does not move with it); a
        # clone is its original's card, cost and shape, and takes par as the original does.
        kept = None if plant.what == "clone" else {
            plant.card: base.attrs["par_values"][plant.seat, plant.card]}
        # A clone is judged beside its original, as a designer reads the two in one table.
        judge = {(plant.seat, plant.card)} | ({(plant.seat, plant.like)} if plant.like else set())
        df = card_verdicts(game, pm, seed, fixed, folder=folder, only=judge, trained=trained,
                           par_pool=shipped, par_of=kept).set_index("card", drop=False)
        if plant.card not in df.index:
            rows.append(row | {"verdict": "skipped", "reason": "its par or no-effect card "
                               "is not legal"})
            continue
        r = df.loc[plant.card]
        # A clone must get its original's label in the same run; whether that is also the
        # label the original had before the clone came is said beside it (`like_before`).
        like_now = df.verdict.get(plant.like, "") if plant.like else ""
        expected = EXPECTED.get(plant.what) or {like_now}
        if plant.like:
            row |= {"like_before": labels.get((plant.seat, plant.like), ""),
                    "like_now": like_now, "twins": r.twins}
        # How far the plant moved the card's worth against par: a plant that moves it by
        # less than its run can detect is no truth a verdict could find.
        size = r.relative - worth.get((plant.seat, plant.card), np.nan)
        rows.append(row | {"verdict": r.verdict, "expected": " or ".join(sorted(expected)),
                           "relative": r.relative, "relative_lo": r.relative_lo,
                           "relative_hi": r.relative_hi, "margin": r.margin, "n": r.n,
                           "size": size, "powered": plant.what == "clone"
                           or bool(abs(size) > r.detectable),
                           "recovered": r.verdict in expected,
                           "contradiction": r.verdict in CONTRADICTS.get(plant.what, ()),
                           "touches_margin": touches(r)})
        if progress:
            progress(k, plant, r.verdict)
    plants = pd.DataFrame(rows)
    # A plant whose card comes back untested here changed nothing its run could see: no
    # truth to find there; it is counted beside the rates, not in them.
    judged = plants[~plants.verdict.isin(["skipped", "untested here"])] if len(plants) \
        else plants
    summary = []
    for what in ("buff", "nerf", "clone"):
        d = judged[judged["class"] == what] if len(judged) else judged
        k, n = int(d.recovered.sum()) if len(d) else 0, len(d)
        e = d[d.powered.astype(bool)] if len(d) else d
        ke, ne = int(e.recovered.sum()) if len(e) else 0, len(e)
        lo, hi = wilson(np.array([k, ke]), np.array([n, ne]))
        summary.append({"class": what, "planted": n, "recovered": k,
                        "rate": k / n if n else float("nan"), "lo": float(lo[0]),
                        "hi": float(hi[0]), "powered": ne, "recovered_powered": ke,
                        "rate_powered": ke / ne if ne else float("nan"),
                        "lo_powered": float(lo[1]), "hi_powered": float(hi[1]),
                        "contradictions": int(d.contradiction.sum()) if n else 0,
                        "misplayed": int((d.verdict == "misplayed").sum()) if n else 0,
                        # clones: how many also kept the label their original had alone
                        "as_before": int((d.verdict == d.like_before).sum())
                        if n and "like_before" in d else 0,
                        "skipped": int(((plants["class"] == what)
                                        & (plants.verdict == "skipped")).sum())
                        if len(plants) else 0,
                        "untested": int(((plants["class"] == what)
                                         & (plants.verdict == "untested here")).sum())
                        if len(plants) else 0})
    out = pd.DataFrame(summary)
    out.attrs.update({"matches": base.attrs["matches"], "pooled_gap": base.attrs["pooled_gap"],
                      "policies": base.attrs["policies"],
                      "unjudged": sorted(f"{c} ({m.decks[seat].name}): {v}"
                                         for (seat, c), v in labels.items() if v in UNJUDGED),
                      "untestable": {what: sorted(f"{c} ({m.decks[seat].name})"
                                                  for (seat, c), v in labels.items()
                                                  if v not in UNJUDGED and (seat, c) not in t)
                                     for what, t in where.items()},
                      "unplanted": unplanted(classes, planned, refused)})
    return plants, out


def unplanted(classes, planned: list[Plant], refused: dict) -> dict[str, str]:
    """{class: why} for each class of which no plant could be made: the validator refused
    every card tried (each named with its reason), or no card could take one."""
    out = {}
    for what in classes:
        if any(p.what == what for p in planned):
            continue
        out[what] = (f"no card could take a {what} within the rules (the validator refused "
                     f"each: {'; '.join(refused[what])})" if refused.get(what) else
                     f"no card to plant a {what} on (of the cards this matchup judges"
                     + (", two of one deck and kind whose numbers differ)" if what == "clone"
                        else ")"))
    return out


def testable(base: pd.DataFrame) -> dict[str, set]:
    """The (seat, card) pairs of the unchanged matchup's verdicts where a plant of each class
    is a truth its play could show: a card it judges (not untested here, dead or without
    par), and for a buff one whose par made strong gained what the run told from zero
    (where nothing above par helps the deck, as with a Payne Academy attacker given every
    arrow lit, no buff could), for a nerf one whose card with no effect lost so."""
    judged = base[~base.verdict.isin(UNJUDGED)]

    def told(column):
        if column not in judged:
            return set(zip(judged.seat, judged.card, strict=True))
        gain = judged[judged[column] - Z95 * judged[f"{column}_se"] > 0]
        return set(zip(gain.seat, gain.card, strict=True))

    return {"buff": told("up"), "nerf": told("gap"),
            "clone": set(zip(judged.seat, judged.card, strict=True))}


def kept_gaps(precision: Precision, base: pd.DataFrame) -> Precision:
    """The precision with the unchanged matchup's gaps by kind kept, below par and above."""
    return dataclasses.replace(precision, pooled=base.attrs["pooled_gap"],
                               pooled_up=base.attrs.get("pooled_up"))


def touches(r, alpha: float = 0.05) -> bool:
    """Whether a verdict row sits on a boundary of its label, where the label may go either
    way on other matches: the 95% interval of its worth's distance to its margin (above par
    or below) or to a bound of balanced reaches zero, or its gap's interval does (the run
    barely told the card from one with no effect, the other condition of balanced), or the
    false-discovery control alone holds it back (beyond its margin at `alpha` on its own, not
    once the other cards' p-values set the threshold, which moves with any of them), or the
    card's numbers changed no record under the policies chosen for it (`unmoved`), so that
    untested here or not turns on policies out of the race."""
    distances = ((r.relative - r.margin_up, r.over_se), (r.relative + r.margin_down, r.under_se),
                 (r.relative + r.own_margin, r.floor_se))
    held_back = r.p <= alpha < r.p_adjusted
    unmoved = getattr(r, "unmoved", False)
    return bool(any(abs(d) <= Z95 * se for d, se in distances) or held_back
                or r.gap_lo <= 0 <= 2 * r.gap - r.gap_lo or (pd.notna(unmoved) and unmoved))


def worth_moved(before, after) -> bool:
    """Whether a card's worth against par itself moved between two runs beyond noise: the
    difference of the two worths beyond 1.96 standard errors of it, the runs' errors added as
    if independent (they share seeds, so this errs toward "not moved"). A label that changes
    so follows a change in what the card does beside the planted one (an interaction in
    play), not a yardstick that moved."""
    diff = after.relative - before.relative
    return bool(abs(diff) > Z95 * math.hypot(after.relative_se, before.relative_se))


def others_moved(game, m, folder, seed: int, count: int, precision: Precision = Precision(),
                 trained: str | None = None, progress=None,
                 base: pd.DataFrame | None = None) -> pd.DataFrame:
    """Single-card plants against every other card's verdict: the unchanged matchup judged
    whole, then for each of `count` plants (buffs and nerfs in turn) the planted matchup
    judged whole on the same seeds with par and the game's gap kept; one row per plant:
    how many other cards changed label, and of those how many had an interval touching its
    margin in either run (excused), with the unexcused cards named and counted again where
    the card's worth itself moved beyond noise (with_worth, `worth_moved`). `base`: the unchanged
    matchup's verdicts, when already made. attrs["verdicts"]: every verdict table behind
    the counts, one after another, the unchanged matchup's first (plant: 0, then each
    plant's number, with its class and card), so that a label's change can be read again."""
    if base is None:
        base = card_verdicts(game, m, seed, precision, folder=folder, trained=trained)
    fixed = kept_gaps(precision, base)
    shipped = game.power.cards(m)
    before = {(r.seat, r.card): r for r in base.itertuples()}
    planned = plan(game, m, count, seed, ("buff", "nerf"), testable(base))
    turns = itertools.zip_longest(*([p for p in planned if p.what == what]
                                    for what in ("buff", "nerf")))
    plants = [p for pair in turns for p in pair if p is not None]
    rows, tables = [], [base.assign(plant=0, plant_class="", plant_card="")]
    for k, plant in enumerate(plants[:count]):
        after = card_verdicts(game, plant.apply(game, m), seed, fixed, folder=folder,
                              trained=trained, par_pool=shipped)
        tables.append(after.assign(plant=k + 1, plant_class=plant.what,
                                   plant_card=plant.card))
        changed, excused, with_worth = [], 0, 0
        for r in after.itertuples():
            b = before.get((r.seat, r.card))
            if (r.seat, r.card) == (plant.seat, plant.card) or b is None:
                continue
            if r.verdict != b.verdict:
                if touches(r, precision.alpha) or touches(b, precision.alpha):
                    excused += 1
                    continue
                moved = worth_moved(b, r)
                with_worth += moved
                changed.append(f"{r.label} ({r.deck}) {b.verdict} -> {r.verdict}"
                               f" ({r.relative - b.relative:+.4f} a copy"
                               f"{', its worth moved' if moved else ''})")
        rows.append({"class": plant.what, "deck": m.decks[plant.seat].name,
                     "card": plant.card, "others": len(after) - 1,
                     "changed": len(changed) + excused, "excused": excused,
                     "unexcused": len(changed), "with_worth": with_worth,
                     "cards": "; ".join(changed)})
        if progress:
            progress(k, plant, len(changed))
    out = pd.DataFrame(rows)
    out.attrs["verdicts"] = pd.concat(tables, ignore_index=True)
    return out
