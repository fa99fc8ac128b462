"""Payne's edits behind the designed experiments: sensitivity's one-more and one-fewer lit
arrow and arguments one further from 0, and the sweeps (offensive characters in the deck,
copies of one card)."""

from __future__ import annotations

import dataclasses

from sim.core.problems import InputError, Problem
from sim.kit.variants import Sweep, Variant
from sim.payne import decks as D
from sim.payne import pool as T
from sim.payne.batch import Matchup
from sim.payne.building import BUILDING


def with_deck(m: Matchup, seat: int, counts: dict[int, int]) -> Matchup:
    deck = m.decks[seat]
    new = D.Deck(deck.path, deck.name, tuple((c, n) for c, n in counts.items() if n > 0))
    return m.with_deck(seat, new)


def value_edits(m: Matchup, cards=None) -> list[Variant]:
    """Sensitivity: each character with one more lit arrow (the first unlit side, N E S W)
    and one fewer (the last lit side); each effect argument one further from zero. One that
    cannot be made (every side lit, none lit, an argument at 3) is there with why."""
    out = []
    table = m.pool.table
    for seat, deck in enumerate(m.decks):
        for c, copies in deck.counts:
            cid, name = m.pool.ids[c], m.pool.names[c]
            if cards and cid not in cards and name not in cards:
                continue
            mask = int(table[c, T.C_ARROWS])
            edits = []  # (field, delta, CARD.FIELD=VALUE, or why it cannot be made)
            if table[c, T.C_KIND] == T.CHARACTER:
                unlit = [s for s in range(4) if not mask >> s & 1]
                lit = [s for s in range(4) if mask >> s & 1]
                edits.append(("arrows", +1, f"{cid}.arrows={T.arrows_text(mask | 1 << unlit[0])}"
                              if unlit else "every side is lit already"))
                edits.append(("arrows", -1, f"{cid}.arrows={T.arrows_text(mask ^ 1 << lit[-1])}"
                              if lit else "no side is lit"))
            for fld, col in (("arg1", T.C_ARG1), ("arg2", T.C_ARG2)):
                arg = int(table[c, col])
                if arg:
                    edits.append((fld, 1, f"{cid}.{fld}={arg + (1 if arg > 0 else -1)}"
                                  if abs(arg) < 3 else f"{fld} is {arg}, the furthest from 0"))
            for fld, delta, edit in edits:
                word = {1: "one more lit arrow", -1: "one fewer lit arrow"}[delta] \
                    if fld == "arrows" else f"{fld} one further from 0"
                made = "=" in edit
                changed = dataclasses.replace(m, pool=m.pool.with_sets([edit])) if made else None
                out.append(Variant(f"{name} {word}" + (f" ({edit.split('=')[1]})" if made
                                                        else ""), seat, changed, cid, name, fld,
                                   copies, {"delta": delta}, "" if made else edit))
    return out


def fill_role(m: Matchup, seat: int, role: int, k: int) -> dict[int, int]:
    """k characters of a role: the deck's own first (list order), then the pool's commons,
    then anything, keeping the per-name caps."""
    table, pool = m.pool.table, m.pool
    own = [(c, n) for c, n in m.decks[seat].counts
           if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == role]
    extra = sorted((c for c in range(len(pool)) if table[c, T.C_KIND] == T.CHARACTER
                    and table[c, T.C_ROLE] == role), key=lambda c: table[c, T.C_RARITY])
    out: dict[int, int] = {}
    per_name: dict[str, int] = {}
    for c, cap in own + [(c, T.MAX_BY_RARITY[table[c, T.C_RARITY]]) for c in extra]:
        name = pool.names[c].lower()
        room = min(cap - out.get(c, 0), T.MAX_PER_NAME - per_name.get(name, 0),
                   k - sum(out.values()))
        if room > 0:
            out[c] = out.get(c, 0) + room
            per_name[name] = per_name.get(name, 0) + room
    if sum(out.values()) < k:
        raise InputError([Problem("sweep", 0, f"the pool cannot supply {k} "
                                  f"{T.ROLES[role]} characters within the copy limits")])
    return out


def sweep_ratio(m: Matchup, seat: int, value: int, options=None) -> Variant:
    """The deck's characters split into `value` offensive and the rest defensive."""
    table = m.pool.table
    others = {c: n for c, n in m.decks[seat].counts if table[c, T.C_KIND] != T.CHARACTER}
    n_chars = sum(n for c, n in m.decks[seat].counts if table[c, T.C_KIND] == T.CHARACTER)
    if not 1 <= value < n_chars:
        raise InputError([Problem("sweep", 0, f"offensive characters must be 1..{n_chars - 1}")])
    counts = {**fill_role(m, seat, T.OFF, value), **fill_role(m, seat, T.DEF, n_chars - value),
              **others}
    return Variant(f"{value} offensive / {n_chars - value} defensive", seat,
                   with_deck(m, seat, counts), extra={"offensive": value,
                                                      "defensive": n_chars - value})


SWEEPS = {
    "ratio": Sweep("offensive characters in the deck (the rest of its characters "
                   "defensive)", tuple(range(14, 40, 4)), sweep_ratio),
    "copies": Sweep("copies of one card, the rest made up with blanks",
                    (0, 1, 2, 3), BUILDING.copies, needs_card=True),
}
