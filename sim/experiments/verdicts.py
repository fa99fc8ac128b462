"""Causal card verdicts for any game: each flagged card against par for its kind and cost
(the same card with par's numbers, so the deck keeps its length), and against the card with
no effect (which sets the margin), under the best of the folder's policies for its deck, on
the same seeds as the unchanged matchup; matches go round by round to the open cards."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from analysis.load import distinct_labels
from analysis.quantities import seat_names
from analysis.verdicts import classify, contrast, covariance, margins, negligible, pooled_gap
from sim.core.problems import InputError, Problem
from sim.experiments import par
from sim.experiments.arms import Arms, seat_local, seat_policies
from sim.experiments.par_table import read_par
from sim.kit import legality


@dataclass(frozen=True)
class Precision:
    """How a verdict is made. Every card starts with `start` matches, an open one doubles
    them each round up to `max_matches`; the margin is `share` of the gap between par and
    the card with no effect; `policies` of the folder's policies play each deck (the trained
    one and the best of the others on `screen` matches of the unchanged deck)."""

    start: int = 2000
    max_matches: int = 64_000
    alpha: float = 0.05
    share: float = 0.5
    policies: int = 2
    screen: int = 4000
    # The game's gap between par and no effect by card kind ("" the game's; None: this run's),
    # and between par made strong and par.
    pooled: dict[str, float] | None = None
    pooled_up: dict[str, float] | None = None

    @property
    def looks(self) -> int:
        return int(np.ceil(np.log2(max(self.max_matches / self.start, 1)))) + 1

    def check(self) -> None:
        if not 0 < self.share < 1:
            raise InputError([Problem("--margin-share", 0, "a share of the gap between par "
                                      f"and a card with no effect in 0 .. 1, got {self.share}")])
        # The commands' names of start and max_matches (verdicts, report, flags, calibrate).
        if self.start < 2:
            raise InputError([Problem("--verdict-start", 0, f"at least 2, got {self.start}")])
        if self.start > self.max_matches:
            raise InputError([Problem("--verdict-start", 0, "at most --verdict-max ("
                                      f"{self.max_matches}), got {self.start}")])
        if self.policies < 1 or self.screen < 2:
            raise InputError([Problem("--policies", 0, "at least one policy and two "
                                      "screening matches")])


@dataclass
class Subject:
    """One card of one seat's deck, with its par, no-effect and par-made-strong values."""

    seat: int
    card: str
    copies: int
    par: dict
    dead: dict
    at_par: bool
    against_par: int = 0  # +1: the card dominates par's numbers, -1: par dominates it
    strong: dict = dataclasses.field(default_factory=dict)


def best_play(arms: Arms, game, m, seat: int, policies: dict, trained, p: Precision) -> list[str]:
    """The policies that play the seat's deck: the trained one, and the best of the others by
    win rate of the unchanged deck on `screen` matches, `p.policies` in all. A quick look
    (a verdict of at most fewer matches) screens on no more than a card may play."""
    rate = {}
    for name, put in policies.items():
        key = ("base", seat, name)
        arms.add(key, put(m, seat), seat)
        rate[name] = float(arms.extend(key, min(p.screen, p.max_matches)).mean())
    order = sorted(rate, key=lambda k: (-rate[k], k))
    kept = [trained] if trained in rate else []
    kept += [k for k in order if k not in kept][: max(p.policies - len(kept), 0)]
    return kept


def subjects(game, m, cards: pd.DataFrame, flagged: set, starting,
             pool: pd.DataFrame | None = None, declared: pd.DataFrame | None = None,
             par_of: dict | None = None) -> list[Subject]:
    """Every card of a flagged kind in each seat's deck, except cards in play from the start,
    with par from `par_of` ({card id: par values}) where given, else from the folder's
    `declared` par, else read off `pool` (default: this matchup's cards)."""
    power = game.power
    kinds = dict(zip(cards.id, cards.kind, strict=True))
    out = []
    for seat in range(len(m.decks)):
        start = set(starting[seat]) if seat < len(starting) else set()
        for card, copies in game.building.counts(m, seat).items():
            if kinds.get(card) not in flagged or card in start or copies <= 0:
                continue
            pv = (par_of or {}).get(card) or par.par_values(power, cards, card, pool, declared)
            out.append(Subject(seat, card, copies, pv, par.dead_values(power, cards, card),
                               not par.differs(pv, cards), par.against(power, cards, card, pv),
                               par.strong_values(power, cards, card, pv, pool)))
    return out


def best(arms: Arms, keys: list, n: int, z: float = 3.0) -> tuple:
    """The key of the arm with the highest win rate over the first n matches, among the arms
    of `keys` still in the race: one whose paired shortfall to the leader lies beyond `z`
    standard errors is out of this race for good and plays no further matches for it (the
    policies a race compares are seldom close for long, so later rounds play fewer arms)."""
    out = arms.dropped.setdefault(tuple(keys), set())
    live = [k for k in keys if k not in out]
    leader = max(live, key=lambda k: (float(arms.extend(k, n).mean()), str(k)))
    lead = arms.extend(leader, n).astype(float)
    for k in live:
        if k == leader:
            continue
        mean, se = contrast(lead - arms.extend(k, n))
        if mean > z * se:
            out.add(k)
    return leader


def row(arms: Arms, group: list[tuple[int, Subject]], kept: list[str], n: int) -> dict:
    """A card's worth against par and the gap from par to no effect, per copy, each paired by
    match under the best policy of each side (`best`); the card's side may also be played
    as par is played (its policies reading the card as par: "as_par"), where the game
    allows it. Twins (cards of one deck the rules cannot tell apart, `twins`) are one card:
    each one's paired differences are summed match by match and shared over all their
    copies. `deck_worth` is a card's whole difference (all its copies, a twin's share of its
    group's), `relative` the same per copy, which the verdict judges."""
    diff, gap_diff, up_diff, copies, untested, first = 0.0, 0.0, 0.0, 0, True, None
    unmoved = True
    for i, s in group:
        base = best(arms, [("base", s.seat, p) for p in kept]
                    + [("view", i, p) for p in kept if ("view", i, p) in arms.matchups], n)
        par_key = best(arms, [("par", i, p) for p in kept], n)
        dead_key = best(arms, [("dead", i, p) for p in kept], n)
        strong = [("strong", i, p) for p in kept if ("strong", i, p) in arms.matchups]
        strong_key = best(arms, strong, n) if strong else None
        at_par = arms.extend(par_key, n).astype(float)
        diff = diff + arms.extend(base, n).astype(float) - at_par
        gap_diff = gap_diff + at_par - arms.extend(dead_key, n).astype(float)
        if strong_key:  # else par is as strong as the validator allows: no gap above it
            up_diff = up_diff + arms.extend(strong_key, n).astype(float) - at_par
        copies += s.copies
        # Its numbers changed no record: par's (a card at par: no effect's and par made
        # strong's) played every match as the card did, under every policy (an arm out of
        # its race on the matches it played) and under the one chosen to the last match;
        # unmoved: so under the chosen ones alone (a label then turns on the others).
        changed = [par_key] if not s.at_par else [dead_key] + [strong_key] * bool(strong)
        chosen = all(arms.agree(key, ("base", s.seat, key[2]), n) for key in changed)
        unmoved &= chosen
        untested &= chosen and all(arms.same((*key[:2], p), ("base", s.seat, p), n)
                                   for key in changed for p in kept)
        first = first or (base, par_key)
    deck_worth, deck_worth_se = contrast(diff / len(group))
    rel, rel_se = contrast(diff / copies)
    gap, gap_se = contrast(gap_diff / copies)
    up_diff = np.broadcast_to(up_diff, (n,))
    up, up_se = contrast(up_diff / copies)
    base, par_key = first
    # The margins are measured on the card's own matches: how they move with its worth.
    return {"n": n, "deck_worth": deck_worth, "deck_worth_se": deck_worth_se, "relative": rel,
            "relative_se": rel_se, "gap": gap, "gap_se": gap_se, "up": up, "up_se": up_se,
            "rel_gap_cov": covariance(diff / copies, gap_diff / copies),
            "rel_up_cov": covariance(diff / copies, up_diff / copies),
            "policy": base[2], "as_par": base[0] == "view", "policy_par": par_key[2],
            "untested": untested, "unmoved": unmoved}


def twins(game, m, cards: pd.DataFrame, keep: list[Subject]) -> list[list[int]]:
    """The judged cards in groups (indices into `keep`): cards of one seat's deck with the
    same row of rules (every column of the card table but id and name: numbers, words and
    keywords) and the same par are one card to the rules, judged as one so that they carry
    one verdict; every other card is a group of its own."""
    pool = getattr(m, "pool", None)
    if pool is not None and hasattr(pool, "table"):
        ids = list(pool.ids)

        def rules(card):
            return tuple(int(x) for x in pool.table[ids.index(card)])
    else:  # a game without a card table: the numbers Power reads
        by_id = cards.drop(columns=[c for c in ("name",) if c in cards]).set_index("id")

        def rules(card):
            return tuple(by_id.loc[card].tolist())

    groups: dict = {}
    for i, s in enumerate(keep):
        key = (s.seat, rules(s.card), tuple(sorted((f, v) for (_, f), v in s.par.items())))
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def played(game, m, arms: Arms, group: list[Subject], kept: list[str], ids: list[str]
           ) -> tuple[float, float]:
    """How often the card (with its twins) was played or used under the kept policies (nan:
    the game does not say what counts), and in how many of their matches it was drawn (a
    card the matchup never deals, as one outside rally mode's arsenals, is never drawn)."""
    schema = game.schema_of(m)
    stats = sum(arms.stats[("base", s.seat, p)][s.seat, ids.index(s.card)]
                for s in group for p in kept)
    frame = pd.DataFrame([stats], columns=list(schema.all_card_stats))
    drawn = float(frame["matches_drawn"].iloc[0])
    if not schema.played:
        return float("nan"), drawn
    return float(frame.eval(schema.played).iloc[0]), drawn


def settled(df: pd.DataFrame, p: Precision, pooled: dict[str, float],
            pooled_up: dict[str, float]) -> pd.Series:
    """Cards whose verdict the per-look intervals decide (or that need no more matches)."""
    z = norm.ppf(1 - p.alpha / (2 * p.looks))
    # The margins as the verdict will read them (whether a gap is the card's own is told at
    # 95%, as there); only the decisions are made at the stricter per-look level.
    b = margins(df, p.share, pooled, pooled_up=pooled_up)
    told = df.gap - z * df.gap_se > 0
    over = df.relative - b.up
    inside = (df.relative + b.own_down - z * b.floor_se > 0) & (over + z * b.over_se < 0)
    return (df.untested | (df.played == 0) | (over - z * b.over_se > 0)
            | (df.relative + b.down + z * b.under_se < 0) | (inside & told)
            | negligible(df, p.share, pooled, pooled_up, z))


def card_verdicts(game, m, seed: int, precision: Precision = Precision(), progress=None,
                  folder=None, only=None, trained: str | None = None,
                  par_pool: pd.DataFrame | None = None, par_of: dict | None = None
                  ) -> pd.DataFrame:
    """Verdicts for every card of the kinds the game flags, in every seat's deck. attrs:
    matches (in all, and by part), seconds, rounds, the precision, the policies that played
    each deck, each judged card's par values ({(seat, card id): values}) and the cards
    skipped (a par or no-effect card the validator rejects). `only`:
    the (seat, card id) pairs to judge (default: every flagged card); `folder` and `trained`:
    the game folder whose policies play the decks and its trained policy (without a folder,
    the matchup's own policies; the folder's par.csv, when it has one, declares par);
    `par_pool`: the card table par is read off where nothing is declared (Power.cards of
    another matchup; default this one's); `par_of`: par values for some cards, kept
    from another matchup ({card id: {(card id, field): value}})."""
    precision.check()
    if game.power is None or game.building is None:
        raise InputError([Problem("verdicts", 0, f"{game.name} declares no card power "
                                  "(Game.power and Game.building)")])
    start = time.perf_counter()
    desc = game.describe(m)
    pool = desc["card_pool"]
    labels = distinct_labels(pool["ids"], pool["names"])
    cards = game.power.cards(m)
    declared = read_par(folder, game.power, cards)
    todo_all = [s for s in subjects(game, m, cards, set(game.schema.flag_kinds),
                                    desc.get("starting", []), par_pool, declared, par_of)
                if only is None or (s.seat, s.card) in only]
    kinds = dict(zip(cards.id, cards.kind, strict=True))
    # A card's peers, whose gaps its own pools with: its kind and the fields it shares with
    # its par (Payne Academy's role).
    peer = {r.id: " ".join([r.kind] + [f"{g} {getattr(r, g)}" for g in game.power.group])
            for r in cards.itertuples()}
    arms = Arms(game, seed)
    policies, trained = seat_policies(game, folder, trained)
    kept = {seat: best_play(arms, game, m, seat, policies, trained, precision)
            for seat in sorted({s.seat for s in todo_all})}
    screened = arms.played
    keep, skipped, unpriced = [], [], []
    for s in todo_all:
        if not s.par:  # a kind with no numbers that carry power: nothing to price
            unpriced.append({"seat": s.seat, "deck": m.decks[s.seat].name, "card": s.card,
                             "name": labels[s.card], "label": labels[s.card],
                             "kind": kinds[s.card], "copies": s.copies, "par": "",
                             "twins": "", "verdict": "no par"})
            continue
        own = seat_local(game, m, s.seat, s.card)
        s.dead = legality.weakest_legal(game, own, s.dead, cards)
        power = game.power
        variants = {"par": power.made(own, s.par), "dead": power.made(own, s.dead)}
        found = [pr for mix in variants.values() for v in mix
                 for pr in legality.problems(game, v)]
        if found:
            skipped.append({"item": labels[s.card], "card": s.card, "seat": s.seat,
                            "reason": legality.reason(found)})
            continue
        # Par made strong as a deck may hold it (toward par where the validator objects);
        # no arm where only par itself is legal.
        s.strong = legality.nearest_legal(game, own, s.strong, s.par) or s.par
        if s.strong != s.par:
            variants["strong"] = power.made(own, s.strong)
        i = len(keep)
        keep.append(s)
        # A card may be played exactly as par is played: its policies reading it as par.
        if power.with_view is not None and not s.at_par:
            variants["view"] = power.read_as(own, s.seat, s.par)
        for what, mix in variants.items():
            for p in kept[s.seat]:
                arms.add((what, i, p), [policies[p](v, s.seat) for v in mix], s.seat)
    groups = twins(game, m, cards, keep)
    n_of = {g: 0 for g in range(len(groups))}
    df, pooled, pooled_up = pd.DataFrame(), {"": 0.0}, {"": 0.0}
    target, rounds, todo = precision.start, 0, list(range(len(groups)))
    while True:
        for g in todo:
            n_of[g] = target
        rows = []
        for g, members in enumerate(groups):
            group = [(i, keep[i]) for i in members]
            shared = row(arms, group, kept[keep[members[0]].seat], n_of[g])
            shared["played"], shared["drawn"] = played(game, m, arms, [s for _, s in group],
                                                       kept[keep[members[0]].seat],
                                                       list(pool["ids"]))
            for i, s in group:
                rows.append(shared | {
                    "seat": s.seat, "deck": m.decks[s.seat].name, "card": s.card,
                    "name": labels[s.card], "label": labels[s.card], "kind": kinds[s.card],
                    "peer": peer[s.card], "copies": s.copies, "at_par": s.at_par,
                    "against_par": s.against_par,
                    "par": ", ".join(f"{f} {v}" for (_, f), v in s.par.items()),
                    "twins": ", ".join(labels[keep[j].card] for j in members if j != i),
                    "group": g})
        df = pd.DataFrame(rows)
        one = df.drop_duplicates("group") if len(df) else df
        pooled = precision.pooled if precision.pooled is not None else (
            pooled_gap(one) if len(df) else {"": 0.0})
        pooled_up = precision.pooled_up if precision.pooled_up is not None else (
            pooled_gap(one, "up") if len(df) else {"": 0.0})
        open_rows = (~settled(df, precision, pooled, pooled_up) if len(df)
                     else pd.Series(dtype=bool))
        still = sorted(set(df.group[open_rows])) if len(df) else []
        if progress:
            progress(rounds, target, len(still), arms.played)
        if not still or target >= precision.max_matches:
            break
        target, rounds = min(2 * target, precision.max_matches), rounds + 1
        todo = still
    out = decide(df, precision, pooled, pooled_up)
    if unpriced:
        out = pd.concat([out, pd.DataFrame(unpriced)], ignore_index=True)
    labels = seat_names(d.name for d in m.decks)
    out.attrs.update({"matches": arms.played, "screen_matches": screened,
                      "card_matches": arms.played - screened,
                      "seconds": time.perf_counter() - start, "rounds": rounds + 1,
                      "share": precision.share, "pooled_gap": pooled, "pooled_up": pooled_up,
                      "start": precision.start,
                      "max_matches": precision.max_matches, "alpha": precision.alpha,
                      # Keyed by each seat's label: a deck at two seats keeps both.
                      "policies": {labels[s]: kept[s] for s in kept},
                      "par_values": {(s.seat, s.card): s.par for s in keep},
                      "skipped": pd.DataFrame(skipped, columns=["item", "card", "seat",
                                                                "reason"])})
    return out


def decide(df: pd.DataFrame, p: Precision, pooled: dict[str, float],
           pooled_up: dict[str, float]) -> pd.DataFrame:
    """Each group's verdict (analysis.verdicts.classify, once a group, so that twins count
    once among the cards whose false discoveries are controlled), on every member's row."""
    if df.empty:
        return df
    judged = classify(df.drop_duplicates("group"), p.share, p.alpha, pooled, pooled_up)
    added = [c for c in judged.columns if c not in df.columns]
    out = df.join(judged.set_index("group")[added], on="group").drop(columns="group")
    out.attrs = judged.attrs
    return out
