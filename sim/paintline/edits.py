"""Paint the Line's designed changes for the generic experiments: +1 on a card value
(sensitivity) and the deck-composition sweeps (stamina count, copies of a card, the
lob/spin/drive mix), each deck one the validator accepts."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np

from sim.core.problems import InputError, Problem
from sim.kit.variants import Sweep, Variant
from sim.paintline import pool as T
from sim.paintline.batch import Matchup
from sim.paintline.building import BUILDING
from sim.paintline.decks import Deck, validate
from sim.paintline.params import FIELDS, PLAYS, load_policies

VALUE_FIELDS = ("normal_bonus", "normal_penalty", "advantage_bonus", "advantage_penalty")


def shot_cards(m: Matchup) -> list[tuple[int, int]]:
    """(seat, card) for every shot card in either deck."""
    out = []
    for seat, deck in enumerate(m.decks):
        for card, _ in deck.counts:
            if m.pool.table[card, T.C_KIND] in (T.BASIC_SHOT, T.TRICK_SHOT):
                out.append((seat, card))
    return out


def value_edits(m: Matchup, cards: list[str] | None = None) -> list[Variant]:
    """+1 on each value of each shot card (both value sets' bonus and penalty)."""
    chosen = shot_cards(m)
    if cards:
        wanted = {m.pool.card(c) for c in cards}
        chosen = [(s, c) for s, c in chosen if c in wanted]
    out = []
    for seat, card in chosen:
        for field in VALUE_FIELDS:
            col = T.INT_COLUMNS[field]
            pool = m.pool.with_values({(card, col): int(m.pool.table[card, col]) + 1})
            out.append(Variant(f"{m.pool.names[card]} {field} +1", seat,
                               dataclasses.replace(m, pool=pool), m.pool.ids[card],
                               m.pool.names[card], field))
    return out


def with_counts(deck: Deck, counts: dict[int, int], name: str) -> Deck:
    """A deck with new card counts (zero drops the card), order kept, new cards at the end;
    each kept card keeps the line of the list it came from (a new one has none, 0)."""
    lines = dict(zip((c for c, _ in deck.counts), deck.lines, strict=False))
    out = [(c, counts.get(c, n)) for c, n in deck.counts]
    known = {c for c, _ in deck.counts}
    out += [(c, n) for c, n in counts.items() if c not in known]
    kept = tuple((c, n) for c, n in out if n > 0)
    return Deck(deck.path, name, kept, deck.coach, deck.nation,
                tuple(lines.get(c, 0) for c, _ in kept))


def legal(v: Variant, why: str) -> Variant:
    """The variant, when the validator accepts its decks and cards; else an InputError
    saying which change could not stay legal, with the validator's problems."""
    problems = validate(v.matchup)
    if problems:
        raise InputError([Problem(p.path, p.line, f"{why}: {p.message}") for p in problems])
    return v


def stamina_deck(deck: Deck, pool, stamina: int) -> Deck:
    """The filler rule of the stamina sweep: to add a Stamina, take one copy off the
    non-stamina card with the most copies (ties: the one listed last); to remove one, add a
    copy to the card with the fewest copies under 4 (ties: the one listed first). Blanks
    and the coach are never moved."""
    st = stamina_card(deck, pool)
    counts = dict(deck.counts)
    others = [c for c, _ in deck.counts if c != st and c != deck.coach
              and pool.table[c, T.C_KIND] != T.BLANK]
    while counts[st] < stamina:
        if not any(counts[c] > 0 for c in others):
            raise InputError([Problem(str(deck.path), 0, f"cannot go up to {stamina} "
                                      "stamina: no other card is left to give way")])
        c = max(reversed(others), key=lambda x: counts[x])
        counts[c] -= 1
        counts[st] += 1
    while counts[st] > stamina:
        room = [c for c in others if counts[c] < T.MAX_COPIES]
        if not room:
            raise InputError([Problem(str(deck.path), 0, f"cannot go down to {stamina} "
                                      "stamina: every other card is at 4 copies")])
        c = min(room, key=lambda x: counts[x])
        counts[c] += 1
        counts[st] -= 1
    return with_counts(deck, counts, f"{deck.name}-stamina{stamina}")


def stamina_card(deck: Deck, pool) -> int:
    st = next((c for c, _ in deck.counts if pool.table[c, T.C_KIND] == T.STAMINA), None)
    if st is None:
        raise InputError([Problem(str(deck.path), 0, f"deck {deck.name!r} has no Stamina to "
                                  "give way or take the difference")])
    return st


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
            raise InputError([Problem(str(deck.path), 0, f"cannot move {k} copies from "
                                      f"{from_type} to {to_type} basic shots")])
        c = max(reversed(have), key=lambda x: counts[x])
        counts[c] -= 1
        counts[room[0]] = counts.get(room[0], 0) + 1
    return with_counts(deck, counts, f"{deck.name}-{from_type}-to-{to_type}-{k}")


def _stamina_point(m: Matchup, seat: int, value: int, options: dict) -> Variant:
    """A stamina-count point, with the exact hypergeometric P(at least one Stamina in the
    opening hand plus `by_turn` draws)."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from scipy.stats import hypergeom

    d = stamina_deck(m.decks[seat], m.pool, value)
    by_turn = int(options.get("by_turn", 3))
    # Cards that can be drawn: a Blank is set aside by the draw that meets it.
    bag = sum(n for c, n in d.counts if c != d.coach and m.pool.table[c, T.C_KIND] != T.BLANK)
    seen = m.rules.values["opening_hand"] + by_turn
    p = 1 - hypergeom(bag, value, seen).pmf(0)
    return legal(Variant(d.name, seat, m.with_deck(seat, d),
                         extra={f"p_stamina_by_turn_{by_turn}": float(p)}),
                 f"stamina sweep at {value}")


def _mix_point(m: Matchup, seat: int, value: int, options: dict) -> Variant:
    mix = tuple(options.get("mix") or ("drive", "lob"))
    if len(mix) != 2 or not set(mix) <= {"lob", "spin", "drive"}:
        raise InputError([Problem("--mix", 0, f"shot types are lob, spin, drive; got {mix}")])
    d = mix_deck(m.decks[seat], m.pool, value, *mix)
    return legal(Variant(d.name, seat, m.with_deck(seat, d)), f"mix sweep at {value}")


SWEEPS = {
    "stamina": Sweep("count of Stamina (filler rule: most-copied card gives way)",
                     tuple(range(10, 31, 2)), _stamina_point),
    "copies": Sweep("copies of --card, Blank fillers (then Stamina gives way)", tuple(range(5)),
                    functools.partial(BUILDING.copies, gives_way=("stamina",)), needs_card=True),
    "mix": Sweep("copies moved between basic-shot types (--mix FROM,TO)", tuple(range(7)),
                 _mix_point),
}


def worth(m: Matchup, seat: int, card: str, policy: np.ndarray | None = None) -> float:
    """Exact worth of one shot card on the die: rally mode, that card alone against the
    Default Shot, as the flat modifier that gives the bare Default Shot the same odds."""
    # deferred: the exact solver (scipy) loads only when asked for
    from sim.paintline import exact

    plain = np.array([d for _, _, d in FIELDS.values()], dtype=np.float64)
    plain[PLAYS] = 0
    own = m.policies[seat]
    chooser = own if own[PLAYS] else (policy if policy is not None else _greedy())
    index = m.pool.lookup(card)
    rally = dataclasses.replace(m, rules=m.rules.replace(rally_mode=True, arsenal_a=[card],
                                                         arsenal_b=[]),
                                arsenals=((index,), ()), policies=(chooser, plain))
    return exact.worth_on_the_die(rally)


def _greedy() -> np.ndarray:
    return load_policies(Path(__file__).resolve().parents[2] / "decks" / "paintline"
                         / "policies.toml")["greedy"]
