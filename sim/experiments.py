"""Designed experiments on common random numbers: card-value sensitivity, card ablation,
deck-composition sweeps and rule what-ifs. Each writes tidy parquet tables into
results/<id>/ and returns them."""

from __future__ import annotations

import dataclasses
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.stats import paired_difference
from sim.paintline import pool as T
from sim.paintline.batch import Matchup, run_batch
from sim.paintline.pool import Deck, PoolError, Problem
from sim.store import check_run_id

VALUE_FIELDS = ("normal_bonus", "normal_penalty", "advantage_bonus", "advantage_penalty")
Z95 = 1.959963984540054


def wins_of(rec, seat: int) -> np.ndarray:
    return (rec.matches[:, 0] == seat).astype(np.int8)


def _folder(results: Path | str, run_id: str | None, kind: str) -> Path:
    run_id = run_id or datetime.now(UTC).strftime(f"{kind}-%Y%m%d-%H%M%S")
    check_run_id(run_id)
    path = Path(results) / run_id
    path.mkdir(parents=True, exist_ok=False)
    return path


def _save(path: Path, tables: dict[str, pd.DataFrame], manifest: dict) -> None:
    for name, df in tables.items():
        tmp = path / f".{name}.parquet.tmp"
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path / f"{name}.parquet")
    (path / "manifest.json").write_text(json.dumps(manifest, indent=2, default=str) + "\n")


def _describe(m: Matchup, seed: int, games: int, kind: str) -> dict:
    return {"kind": kind, "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "seed": seed, "games": games, "decks": [d.name for d in m.decks],
            "policies": list(m.policy_names), "rules": m.rules.values,
            "card_pool_sha256": m.pool.sha256}


def shot_cards(m: Matchup) -> list[tuple[int, int]]:
    """(seat, card) for every shot card in either deck."""
    out = []
    for seat, deck in enumerate(m.decks):
        for card, _ in deck.counts:
            if m.pool.table[card, T.C_KIND] in (T.BASIC_SHOT, T.TRICK_SHOT):
                out.append((seat, card))
    return out


def sensitivity(m: Matchup, games: int, seed: int, results="results", run_id=None,
                cards: list[str] | None = None, worth: bool = True) -> pd.DataFrame:
    """Per shot card and value (both value sets' bonus and penalty): the change in its
    deck's win rate per +1, from paired runs on the same seeds; plus the card's worth as
    a flat d20 modifier (exact, rally mode: the card alone against the Default Shot)."""
    base = run_batch(m, games, seed)
    chosen = shot_cards(m)
    if cards:
        wanted = {m.pool.lookup(c) for c in cards}
        if None in wanted:
            raise PoolError([Problem("--card", 0, f"unknown card in {cards}")])
        chosen = [(s, c) for s, c in chosen if c in wanted]
    rows = []
    worths = {}
    for seat, card in chosen:
        for field in VALUE_FIELDS:
            col = T.INT_COLUMNS[field]
            pool = m.pool.with_values({(card, col): int(m.pool.table[card, col]) + 1})
            rec = run_batch(dataclasses.replace(m, pool=pool), games, seed)
            d = paired_difference(wins_of(base, seat), wins_of(rec, seat))
            rows.append({"item": f"{m.pool.names[card]} {field} +1", "card": m.pool.ids[card],
                         "name": m.pool.names[card], "deck": m.decks[seat].name,
                         "field": field, **d})
        if worth and card not in worths:
            worths[card] = card_worth_on_die(m, card)
    df = pd.DataFrame(rows)
    if worth and len(df):
        df["worth_d20"] = df.card.map({m.pool.ids[c]: w for c, w in worths.items()})
    path = _folder(results, run_id, "sensitivity")
    _save(path, {"sensitivity": df}, _describe(m, seed, games, "sensitivity"))
    return df


def card_worth_on_die(m: Matchup, card: int, policy: str = "greedy") -> float:
    """Exact worth of one shot card on the die: rally mode, that card alone against the
    Default Shot, as the flat modifier that gives the bare Default Shot the same odds."""
    from sim.paintline import exact
    from sim.paintline.policy import FIELDS, PLAYS

    plain = np.array([d for _, _, d in FIELDS.values()], dtype=np.float64)
    plain[PLAYS] = 0
    greedy = m.policies[0] if m.policies[0][PLAYS] else _named_policy(policy)
    rally = dataclasses.replace(m, rules=m.rules.replace(rally_mode=True),
                                arsenals=((card,), ()), policies=(greedy, plain))
    return exact.worth_on_the_die(rally)


def _named_policy(name: str) -> np.ndarray:
    from sim.paintline.policy import load_policies

    return load_policies(Path(__file__).resolve().parents[1] / "decks" / "paintline"
                         / "policies.toml")[name]


def with_counts(deck: Deck, counts: dict[int, int], name: str) -> Deck:
    """A deck with new card counts (zero drops the card), order kept, new cards at the end."""
    out = [(c, counts.get(c, n)) for c, n in deck.counts]
    known = {c for c, _ in deck.counts}
    out += [(c, n) for c, n in counts.items() if c not in known]
    return Deck(deck.path, name, tuple((c, n) for c, n in out if n > 0), deck.coach,
                deck.nation)


def blank_card(m: Matchup) -> int:
    for i in range(len(m.pool)):
        if m.pool.table[i, T.C_KIND] == T.BLANK:
            return i
    raise PoolError([Problem(str(m.pool.path), 0, "the pool has no blank card (kind blank), "
                             "needed as the filler")])


def ablation(m: Matchup, games: int, seed: int, results="results", run_id=None) -> pd.DataFrame:
    """The causal counterpart of card metrics: every copy of one card swapped for a Blank,
    same seeds; the change in that deck's win rate (a positive delta: the card helps)."""
    blank = blank_card(m)
    base = run_batch(m, games, seed)
    rows = []
    for seat, deck in enumerate(m.decks):
        for card, n in deck.counts:
            if m.pool.table[card, T.C_KIND] not in (T.BASIC_SHOT, T.TRICK_SHOT, T.ENHANCEMENT):
                continue
            counts = {card: 0, blank: dict(deck.counts).get(blank, 0) + n}
            decks = list(m.decks)
            decks[seat] = with_counts(deck, counts, f"{deck.name}-without-{m.pool.ids[card]}")
            rec = run_batch(dataclasses.replace(m, decks=tuple(decks)), games, seed)
            d = paired_difference(wins_of(rec, seat), wins_of(base, seat))
            rows.append({"item": f"{m.pool.names[card]} ({deck.name})",
                         "card": m.pool.ids[card], "name": m.pool.names[card],
                         "deck": deck.name, "copies": n, **d})
    df = pd.DataFrame(rows)
    from analysis.stats import bh

    df["p"] = _p_from(df)
    df["reject"], df["p_adjusted"] = bh(df.p.to_numpy())
    path = _folder(results, run_id, "ablation")
    _save(path, {"ablation": df}, _describe(m, seed, games, "ablation"))
    return df


def _p_from(df: pd.DataFrame) -> np.ndarray:
    from scipy.stats import norm

    with np.errstate(divide="ignore", invalid="ignore"):
        z = df.delta / df.se
    return np.where(df.se > 0, 2 * norm.sf(np.abs(z)), 1.0)


def stamina_deck(deck: Deck, pool, stamina: int) -> Deck:
    """The filler rule of the stamina sweep: to add a Stamina, take one copy off the
    non-stamina card with the most copies (ties: the one listed last); to remove one, add a
    copy to the card with the fewest copies under 4 (ties: the one listed first)."""
    st = next(c for c, _ in deck.counts if pool.table[c, T.C_KIND] == T.STAMINA)
    counts = dict(deck.counts)
    others = [c for c, _ in deck.counts if c != st and c != deck.coach
              and pool.table[c, T.C_KIND] != T.BLANK]
    while counts[st] < stamina:
        c = max(reversed(others), key=lambda x: counts[x])
        counts[c] -= 1
        counts[st] += 1
    while counts[st] > stamina:
        room = [c for c in others if counts[c] < T.MAX_COPIES]
        if not room:
            raise PoolError([Problem(str(deck.path), 0, f"cannot go down to {stamina} stamina: "
                                     "every other card is at 4 copies")])
        c = min(room, key=lambda x: counts[x])
        counts[c] += 1
        counts[st] -= 1
    return with_counts(deck, counts, f"{deck.name}-stamina{stamina}")


def copies_deck(deck: Deck, pool, card: int, copies: int, blank: int) -> Deck:
    """Copies of one card 0..4, the difference made up with Blank fillers."""
    counts = dict(deck.counts)
    now = counts.get(card, 0)
    counts[card] = copies
    counts[blank] = counts.get(blank, 0) + now - copies
    if counts[blank] < 0:  # more copies than before: take the blanks' place, then stamina's
        st = next(c for c, _ in deck.counts if pool.table[c, T.C_KIND] == T.STAMINA)
        counts[st] += counts[blank]
        counts[blank] = 0
    return with_counts(deck, counts, f"{deck.name}-{pool.ids[card]}x{copies}")


def mix_deck(deck: Deck, pool, k: int, from_type: str, to_type: str) -> Deck:
    """The lob/spin/drive mix: k copies of the deck's basic shots of one type swapped for
    neutral basic shots of another (taken from the card with the most copies, ties to the
    one listed last; added to the pool's cheapest basic shots of the new type first, at
    most 4 copies each)."""
    src, dst = T.SHOT_TYPES.index(from_type), T.SHOT_TYPES.index(to_type)
    t = pool.table
    counts = dict(deck.counts)
    takers = [c for c, _ in deck.counts if t[c, T.C_KIND] == T.BASIC_SHOT and t[c, T.C_TYPE] == src]
    givers = sorted((c for c in range(len(pool)) if t[c, T.C_KIND] == T.BASIC_SHOT
                     and t[c, T.C_TYPE] == dst and t[c, T.C_AB1] == 0),
                    key=lambda c: (t[c, T.C_COST], c))
    for _ in range(k):
        have = [c for c in takers if counts.get(c, 0) > 0]
        room = [c for c in givers if counts.get(c, 0) < T.MAX_COPIES]
        if not have or not room:
            raise PoolError([Problem(str(deck.path), 0, f"cannot move {k} copies from "
                                     f"{from_type} to {to_type} basic shots")])
        c = max(reversed(have), key=lambda x: counts[x])
        counts[c] -= 1
        counts[room[0]] = counts.get(room[0], 0) + 1
    return with_counts(deck, counts, f"{deck.name}-{from_type}-to-{to_type}-{k}")


def sweep(m: Matchup, seat: int, vary: str, values: list[int], games: int, seed: int,
          results="results", run_id=None, card: str | None = None, by_turn: int = 3,
          mix: tuple[str, str] = ("drive", "lob")):
    """Deck A's (seat 0) or B's composition swept over `values`: vary "stamina" (count of
    Stamina, filler rule in stamina_deck), "copies" (copies of `card`, Blank fillers) or
    "mix" (copies moved between basic-shot types, mix_deck). Every point uses the same
    seeds. Returns the win-rate curve and, for stamina, the exact hypergeometric P(at least
    one Stamina in the opening hand plus `by_turn` draws)."""
    from scipy.stats import hypergeom

    from analysis.stats import with_rate

    deck = m.decks[seat]
    blank = blank_card(m)
    card_i = m.pool.lookup(card) if card else None
    if vary == "copies" and card_i is None:
        raise PoolError([Problem("--card", 0, f"unknown card {card!r}")])
    if vary not in ("stamina", "copies", "mix"):
        raise PoolError([Problem("--vary", 0, f"unknown sweep {vary!r}; stamina, copies "
                                 "or mix")])
    if vary == "mix" and not set(mix) <= {"lob", "spin", "drive"}:
        raise PoolError([Problem("--mix", 0, f"shot types are lob, spin, drive; got {mix}")])
    rows = []
    for v in values:
        if vary == "stamina":
            d = stamina_deck(deck, m.pool, v)
        elif vary == "copies":
            d = copies_deck(deck, m.pool, card_i, v, blank)
        else:
            d = mix_deck(deck, m.pool, v, *mix)
        decks = list(m.decks)
        decks[seat] = d
        rec = run_batch(dataclasses.replace(m, decks=tuple(decks)), games, seed)
        wins = int(wins_of(rec, seat).sum())
        row = {"value": v, "k": wins, "n": games, "deck": d.name}
        if vary == "stamina":
            bag = sum(n for c, n in d.counts if c != d.coach)
            seen = m.rules.values["opening_hand"] + by_turn
            row[f"p_stamina_by_turn_{by_turn}"] = 1 - hypergeom(bag, v, seen).pmf(0)
        rows.append(row)
    df = with_rate(pd.DataFrame(rows))
    best = df.loc[df.rate.idxmax()]
    # Values whose interval overlaps the best one's: the optimum is not told apart from them.
    df["optimum_set"] = df.hi >= best.lo
    path = _folder(results, run_id, "sweep")
    _save(path, {"sweep": df}, {**_describe(m, seed, games, "sweep"), "vary": vary,
                                "seat": seat, "card": card, "mix": list(mix)})
    return df


def robust_flags(folder, deck_a, deck_b, policies: list[str], games: int, seed: int,
                 results="results", run_id=None, rules=None) -> pd.DataFrame:
    """Card verdicts under several policies (one run each, same seeds): a verdict that holds
    across at least three policies without a sign or large rank change is robust."""
    from analysis import metrics
    from analysis.load import load_run
    from sim.paintline.batch import load_matchup
    from sim.run import simulate

    path = _folder(results, run_id, "flags")
    by_policy = {}
    verdicts = []
    for policy in policies:
        m = load_matchup(folder, deck_a, deck_b, policy, policy, rules)
        res = simulate(m, games, seed, results=path, run_id=policy, backend="serial")
        flags = metrics.balance_flags(metrics.card_metrics(load_run(res.run.path)))
        by_policy[policy] = flags.assign(iwd=flags.iwd_relative)
        verdicts.append(flags[["deck", "card", "name", "verdict"]].assign(policy=policy))
    table = metrics.robustness(by_policy)
    v = pd.concat(verdicts).pivot_table(index=["deck", "card", "name"], columns="policy",
                                        values="verdict", aggfunc="first").reset_index()
    out = v.merge(table, on=["deck", "card"])
    same = out[policies].nunique(axis=1) == 1
    settled = out[policies[0]] != "not enough games"
    out["robust"] = out.robust & same & settled
    _save(path, {"robustness": out}, {"kind": "flags", "policies": policies, "seed": seed,
                                       "games": games})
    return out


def whatif(m: Matchup, changes: dict, games: int, seed: int, results="results", run_id=None):
    """Baseline and variant rules on the same seeds: deltas of the headline quantities with
    95% intervals (paired per game; rally quantities by a paired bootstrap over games)."""
    variant = dataclasses.replace(m, rules=m.rules.replace(**changes))
    a = run_batch(m, games, seed)
    b = run_batch(variant, games, seed)
    rows = []

    def per_game(name, f):
        d = paired_difference(f(a).astype(float), f(b).astype(float))
        rows.append({"item": name, "baseline": f(a).mean(), "variant": f(b).mean(), **d})

    per_game(f"{m.decks[0].name} win rate", lambda r: r.matches[:, 0] == 0)
    per_game("first server wins", lambda r: r.matches[:, 0] == r.matches[:, 10])
    per_game("points per match", lambda r: r.matches[:, 5])
    per_game("turns per match", lambda r: r.matches[:, 6])
    per_game("deck-out rate", lambda r: r.matches[:, 8] == 1)
    rng = np.random.default_rng(seed)
    boots = rng.integers(0, games, size=(200, games))
    for q in (0.5, 0.9):
        rows.append(_boot_row(f"rally length q{int(q * 100)}", a, b, boots,
                              lambda lens, q=q: _quantile(lens, q)))
    steps = min(a.rally_top.shape[2], b.rally_top.shape[2])
    for k in range(1, steps):
        rows.append(_boot_row(f"P(index step >= {k})", a, b, boots,
                              lambda tops, k=k: tops[k:].sum() / max(tops.sum(), 1),
                              measure="top"))
    df = pd.DataFrame(rows)
    path = _folder(results, run_id, "whatif")
    _save(path, {"whatif": df}, {**_describe(m, seed, games, "whatif"), "changes": changes})
    return df


def _quantile(counts: np.ndarray, q: float) -> float:
    c = counts.cumsum()
    return float(np.searchsorted(c, q * c[-1]))


def _boot_row(name, a, b, boots, stat, measure="len"):
    """Statistic of pooled rally counts, baseline vs variant, with a paired bootstrap."""
    def counts(rec, idx=None):
        arr = rec.rally_len if measure == "len" else rec.rally_top
        arr = arr if idx is None else arr[idx]
        return arr.sum(axis=(0, 1))

    base, var = stat(counts(a)), stat(counts(b))
    deltas = np.array([stat(counts(b, i)) - stat(counts(a, i)) for i in boots])
    lo, hi = np.quantile(deltas, [0.025, 0.975])
    return {"item": name, "baseline": base, "variant": var, "n": a.matches.shape[0],
            "delta": var - base, "se": deltas.std(ddof=1), "lo": lo, "hi": hi,
            "variance_reduction": np.nan}


def diff_runs(path_a: Path, path_b: Path) -> pd.DataFrame:
    """What moved between two stored runs beyond noise: each quantity's delta with its 95%
    interval (paired by game when both runs share seed and games), BH across quantities."""
    from analysis.load import load_run
    from analysis.stats import bh

    a, b = load_run(path_a), load_run(path_b)
    paired = (a.manifest["seed"] == b.manifest["seed"] and len(a.matches) == len(b.matches))
    rows = []

    def compare(name, fa, fb):
        xa, xb = fa.astype(float), fb.astype(float)
        if paired:
            d = paired_difference(xa, xb)
        else:
            se = np.sqrt(xa.var(ddof=1) / len(xa) + xb.var(ddof=1) / len(xb))
            delta = xb.mean() - xa.mean()
            d = {"n": min(len(xa), len(xb)), "delta": delta, "se": se,
                 "lo": delta - Z95 * se, "hi": delta + Z95 * se, "variance_reduction": np.nan}
        rows.append({"item": name, "run_a": xa.mean(), "run_b": xb.mean(), **d})

    ma, mb = a.matches, b.matches
    compare("deck A win rate", (ma.winner == 0).to_numpy(), (mb.winner == 0).to_numpy())
    compare("first server wins", (ma.winner == ma.first_server).to_numpy(),
            (mb.winner == mb.first_server).to_numpy())
    compare("points per match", ma.points.to_numpy(), mb.points.to_numpy())
    compare("turns per match", ma.turns.to_numpy(), mb.turns.to_numpy())
    compare("deck-out rate", (ma.end == 1).to_numpy(), (mb.end == 1).to_numpy())
    df = pd.DataFrame(rows)
    df["p"] = _p_from(df)
    df["moved"], df["p_adjusted"] = bh(df.p.to_numpy())
    df["paired"] = paired
    return df
