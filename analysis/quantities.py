"""The per-match quantities a game's schema names (win, draw, first-player win, end reasons,
lengths, its own rates), as arrays over matches: what what-ifs and diffs compare."""

from __future__ import annotations

import numpy as np
import pandas as pd


def label(text: str, decks: tuple[str, str]) -> str:
    return text.replace("{a}", decks[0]).replace("{b}", decks[1])


def evaluate(matches: pd.DataFrame, expr: str) -> np.ndarray:
    """A schema expression over the matches table, as float per match (empty: 1)."""
    if not expr:
        return np.ones(len(matches))
    return np.asarray(matches.eval(expr), dtype=np.float64)


def per_match(schema: dict, matches: pd.DataFrame, decks: tuple[str, str]) -> dict:
    """Label -> (values per match, n mask or None): the rates as 0/1 (or counts) with the
    matches they are over, and the mean lengths."""
    w = matches["winner"].to_numpy()
    fp = schema["first_player"]
    out = {f"{decks[0]} win rate": (w == 0, None), "draw rate": (w == -1, None),
           f"{schema['first_player_label']} wins": (w == matches[fp].to_numpy(), None)}
    end = schema.get("end_column")
    for code, reason in enumerate(schema.get("end_reasons", ())):
        if end and code > 0:
            out[f"ended by {reason}"] = (matches[end].to_numpy() == code, None)
    for col, text in schema.get("lengths", {}).items():
        out[text] = (matches[col].to_numpy(), None)
    for rate in _rates(schema):
        n = evaluate(matches, rate["n"])
        out[label(rate["label"], decks)] = (evaluate(matches, rate["k"]),
                                           n if rate["n"] else None)
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


def _rates(schema: dict) -> list[dict]:
    rates = list(schema.get("rates", ()))
    for _, _, rs in schema.get("sections", ()):
        rates += list(rs)
    return rates
