"""The per-match quantities a game's schema names (win, draw, first-player win, end reasons,
lengths, its own rates), as arrays over matches: what what-ifs and diffs compare."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.kit.records import SEAT_LETTERS


def seat_names(decks) -> tuple[str, ...]:
    """Each seat's deck; a deck at more than one seat (a mirror) names its seat letter too,
    "deck (seat A)", so that each seat's row stays its own."""
    return arm_seat_names(tuple(decks))[0]


def arm_seat_names(*arms) -> tuple[tuple[str, ...], ...]:
    """Each arm's seat names, a seat named alike in every arm: a deck at more than one seat
    of any arm names its seat letter in all of them, so that rows of arms at two table
    sizes (three seats against two, seat C's deck A's too) meet on the same seat."""
    twice = {d for decks in arms for d in decks if list(decks).count(d) > 1}
    return tuple(tuple(f"{d} (seat {SEAT_LETTERS[i].upper()})" if d in twice else d
                       for i, d in enumerate(decks)) for decks in arms)


def label(text: str, decks: tuple[str, ...]) -> str:
    """A schema label with {a}, {b}, {c} ... replaced by the deck of that seat (named with
    its seat where two seats hold the same deck)."""
    for letter, deck in zip(SEAT_LETTERS, seat_names(decks), strict=False):
        text = text.replace("{" + letter + "}", deck)
    return text


def seat_labels(decks, policies) -> tuple[str, ...]:
    """Each seat as "deck (policy)"; a deck and policy that sit at more than one seat name
    their seat letter too, so that every seat's row stays its own."""
    names = [f"{d} ({p})" for d, p in zip(decks, policies, strict=True)]
    return tuple(f"{d} ({p}, seat {SEAT_LETTERS[i].upper()})" if names.count(names[i]) > 1
                 else names[i] for i, (d, p) in enumerate(zip(decks, policies, strict=True)))


def evaluate(matches: pd.DataFrame, expr: str) -> np.ndarray:
    """A schema expression over the matches table, as float per match (empty: 1)."""
    if not expr:
        return np.ones(len(matches))
    return np.asarray(matches.eval(expr), dtype=np.float64)


def rate_specs(schema: dict, decks: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(label, k expression, n expression) of every headline rate: each seat's wins,
    draws, the first player's wins (of the matches that had a first player), each end
    reason, then the game's own rates."""
    fp = schema["first_player"]
    specs = [(f"{deck} wins", f"winner == {seat}", "")
             for seat, deck in enumerate(seat_names(decks))]
    # A match that ended before anyone went first (Payne Academy's set-up, -1) has no first
    # player: a draw there is not the first player's win, and it is no trial of the edge.
    specs += [("draws", "winner == -1", ""),
              (f"{schema['first_player_label']} wins", f"winner == {fp} and {fp} >= 0",
               f"{fp} >= 0")]
    end = schema.get("end_column")
    for code, reason in enumerate(schema.get("end_reasons", ())):
        if end and code > 0:
            specs.append((f"ended by {reason}", f"{end} == {code}", ""))
    for r in schema.get("rates", ()):
        specs.append((label(r["label"], decks), r["k"], r["n"]))
    return specs


def per_match(schema: dict, matches: pd.DataFrame, decks: tuple[str, ...]) -> dict:
    """Label -> (values per match, denominators per match or None): the headline rates,
    the game's section rates and the mean lengths, as what-ifs and diffs compare them."""
    sections = [(label(r["label"], decks), r["k"], r["n"])
                for _, _, rates in schema.get("sections", ()) for r in rates]
    out = {text: (evaluate(matches, k), evaluate(matches, n) if n else None)
           for text, k, n in rate_specs(schema, decks) + sections}
    for col, text in schema.get("lengths", {}).items():
        out[text] = (matches[col].to_numpy(), None)
    return out


def linearised(values: np.ndarray, n: np.ndarray | None) -> np.ndarray:
    """Per-match values whose mean is the quantity: the values themselves, or for a ratio
    sum(k) / sum(n) its delta-method linearisation (mean R, the ratio's variance), so that
    paired differences and their intervals treat ratios and means alike."""
    if n is None:
        return np.asarray(values, dtype=np.float64)
    total = n.sum()
    if total == 0:
        return np.full(len(values), np.nan)
    r = values.sum() / total
    return (values - r * n) / n.mean() + r
