"""Which cards the policies played: the schema's played expression per seat and card, and
the dead cards (of a flagged kind, in the deck, never played), for reports and the lint."""

from __future__ import annotations

import pandas as pd

COLUMNS = ["seat", "card", "kind", "matches_in_deck", "matches_drawn", "played", "judged"]


def card_usage(cards: pd.DataFrame, schema: dict, kinds: dict[str, str],
               starting: list | None = None) -> pd.DataFrame:
    """Per seat and card in its deck: matches in deck, matches drawn and the played count
    (the schema's `played` expression of the card statistics); `judged` when the card can
    be dead: of a kind that gets balance verdicts and not one its seat starts with in play.
    `cards` has a seat, a card id and the statistics (the store's cards table)."""
    expr = schema.get("played", "")
    c = cards[cards.matches_in_deck > 0].reset_index(drop=True)
    if not expr:
        return pd.DataFrame(columns=COLUMNS)
    out = c[["seat", "card", "matches_in_deck", "matches_drawn"]].copy()
    out.insert(2, "kind", c.card.map(kinds).fillna(""))
    out["played"] = c.eval(expr).astype("int64") if len(c) else pd.Series(dtype="int64")
    flag = tuple(schema.get("flag_kinds", ()))
    start = starting or [[], []]
    in_play = {(s, cid) for s in (0, 1) for cid in start[s]}
    out["judged"] = [(not flag or k in flag) and (int(s), cid) not in in_play
                     for s, cid, k in zip(out.seat, out.card, out.kind, strict=True)]
    return out[COLUMNS]


def dead_cards(usage: pd.DataFrame) -> pd.DataFrame:
    """The judged rows of card_usage with a played count of 0."""
    return usage[usage.judged & (usage.played == 0)].reset_index(drop=True)
