"""Only legal variants: every deck, card table or rule set an experiment builds goes to the
game's validator before a match is played, and what it rejects is listed, never simulated;
numbers it rejects are moved toward legal ones a step at a time."""

from __future__ import annotations

import pandas as pd

from sim.core.problems import InputError, Problem


def problems(game, matchup) -> list[Problem]:
    """The validator's problems with a matchup built in memory ([] when legal, and for a
    game that declares no validator)."""
    return list(game.validate(matchup)) if game.validate is not None else []


def reason(found: list[Problem]) -> str:
    """The problems as one line: each message once, without the in-memory path."""
    return "; ".join(dict.fromkeys(p.message for p in found))


def require(game, matchup, what: str) -> None:
    """InputError naming `what` when the validator rejects the matchup."""
    found = problems(game, matchup)
    if found:
        raise InputError([Problem(what, 0, f"not a legal deck or card table: {reason(found)}")])


def split(game, variants: list) -> tuple[list, pd.DataFrame]:
    """(the variants the validator accepts, a table of the others: item, card, name, seat,
    reason), the ones that could not be made among the others."""
    kept, skipped = [], []
    for v in variants:
        why = v.refused or reason(problems(game, v.matchup))
        if why:
            skipped.append({"item": v.item, "card": v.card, "name": v.name, "seat": v.seat,
                            "reason": why})
        else:
            kept.append(v)
    return kept, pd.DataFrame(skipped, columns=["item", "card", "name", "seat", "reason"])


def weakest_legal(game, m, values: dict, cards: pd.DataFrame) -> dict:
    """The card with no effect as a deck may hold it: where the validator rejects the
    weakest values (a quest with no points, a character with no toughness), one number at
    a time is moved a step at a time back toward the card's own until it accepts; the
    values unchanged when it accepts them, or when nothing short of the card itself does."""
    now = cards.set_index("id")
    found = nearest_legal(game, m, values, {k: int(now.at[k[0], k[1]]) for k in values})
    return values if found is None else found


def nearest_legal(game, m, values: dict, toward: dict) -> dict | None:
    """`values` as a deck may hold them: where the validator rejects them, one number at a
    time moved a step at a time toward `toward` until it accepts; unchanged when it accepts
    them; None when nothing short of `toward` does."""
    def legal(v):  # in every form the numbers may take
        return not any(problems(game, f) for f in game.power.made(m, v))

    if legal(values):
        return values
    for key in values:
        trial, target = dict(values), int(toward[key])
        while trial[key] != target:
            trial[key] += 1 if target > trial[key] else -1
            if legal(trial):
                return trial
    return None
