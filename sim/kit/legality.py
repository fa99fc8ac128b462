"""Only legal variants: every deck, card table or rule set an experiment builds goes to the
game's validator before a match is played, and what it rejects is listed, never simulated."""

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
    reason)."""
    kept, skipped = [], []
    for v in variants:
        found = problems(game, v.matchup)
        if found:
            skipped.append({"item": v.item, "card": v.card, "name": v.name, "seat": v.seat,
                            "reason": reason(found)})
        else:
            kept.append(v)
    return kept, pd.DataFrame(skipped, columns=["item", "card", "name", "seat", "reason"])
