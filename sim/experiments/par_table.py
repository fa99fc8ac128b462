"""A folder's declared par (`par.csv`): the numbers a card of each kind (and group) has at par,
at each cost or at any cost, read and checked against the game's card power, with errors
naming the file, the line and the kind; and the typical card it gives at a card's cost (the
declared row at that cost, else the line through the two nearest declared costs)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.problems import InputError, Problem

PAR_FILE = "par.csv"


def _number(text: str) -> int | None:
    """A cell's whole number, None when blank; ValueError otherwise."""
    text = text.strip()
    return int(text) if text else None


def read_par(folder, power, cards: pd.DataFrame) -> pd.DataFrame | None:
    """The folder's par.csv as a table (kind, the game's group columns, cost, and the numbers
    it declares; a blank group or cost matches any, a blank number is not declared), or
    None when the folder has none. InputError naming the file and line for an unknown
    column, a kind no card has, a number that is not a whole number or lies outside the
    game's bounds, and a kind, group and cost declared twice."""
    if folder is None or not (Path(folder) / PAR_FILE).is_file():
        return None
    path = Path(folder) / PAR_FILE
    where = str(path)
    problems: list[Problem] = []
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header = [h.strip() for h in reader.fieldnames or []]
        known = ["kind", "cost", *power.group, *power.stronger]
        unknown = [h for h in header if h not in known]
        if "kind" not in header or unknown:
            raise InputError([Problem(where, 1, "par.csv needs a kind column and takes only "
                                      f"{', '.join(known)}; unknown: "
                                      f"{', '.join(unknown) or 'none'}")])
        kinds = sorted(set(cards.kind))
        rows, seen = [], {}
        for line, raw in enumerate(reader, start=2):
            rec = {k.strip(): (v or "") for k, v in raw.items() if k is not None}
            kind = rec.get("kind", "").strip()
            if kind not in kinds:
                problems.append(Problem(where, line, f"kind {kind!r}: no card of this game "
                                        f"has it (kinds: {', '.join(kinds)})"))
                continue
            row = {"kind": kind, "line": line}
            row |= {g: rec.get(g, "").strip() or None for g in power.group}
            for col in ["cost", *[f for f in power.stronger if f in header]]:
                try:
                    row[col] = _number(rec.get(col, ""))
                except ValueError:
                    problems.append(Problem(where, line, f"{kind}: {col} {rec[col]!r} is not "
                                            "a whole number"))
                    row[col] = None
                    continue
                lo, hi = power.bounds.get(col, (None, None))
                if col != "cost" and row[col] is not None and lo is not None \
                        and not lo <= row[col] <= hi:
                    problems.append(Problem(where, line, f"{kind}: {col} {row[col]} lies "
                                            f"outside {lo} .. {hi}"))
            key = (kind, *(row[g] for g in power.group), row["cost"])
            if key in seen:
                problems.append(Problem(where, line, f"{kind} at cost {row['cost']} is "
                                        f"declared twice (first on line {seen[key]})"))
            seen.setdefault(key, line)
            rows.append(row)
    if problems:
        raise InputError(problems)
    return pd.DataFrame(rows, columns=["kind", "line", *power.group, "cost",
                                       *[f for f in power.stronger if f in header]])


def declared_card(power, declared: pd.DataFrame | None, row, at: float
                  ) -> dict[str, float] | None:
    """The typical card the declared par gives a card (`row`: its kind and group) at cost
    `at`: each declared number at that cost, or on the line through the two nearest
    declared costs (extended past the ends) where it has no value at any cost; rows of the
    card's own group before rows of any group. None when nothing is declared for its kind."""
    if declared is None:
        return None
    rows = declared[declared.kind == row.kind]
    for g in power.group:
        own = rows[rows[g] == str(row[g])]
        rows = own if len(own) else rows[rows[g].isna()]
    if rows.empty:
        return None
    out = {}
    for f in [f for f in power.stronger if f in rows]:
        known = rows[rows[f].notna()]
        if known.empty:
            continue
        costed = known[known.cost.notna()].sort_values("cost")
        exact, anywhere = costed[costed.cost == at], known[known.cost.isna()]
        if len(exact):
            out[f] = float(exact[f].iloc[0])
        elif len(anywhere):
            out[f] = float(anywhere[f].iloc[0])
        elif len(costed) >= 2:
            out[f] = _line(costed.cost.to_numpy(float), costed[f].to_numpy(float), at)
        else:
            out[f] = float(costed[f].iloc[0])
    return out or None


def _line(x, y, at: float) -> float:
    """y at `at` on the segment of the two nearest x (the end segments extended)."""
    i = int(np.clip(np.searchsorted(x, at), 1, len(x) - 1))
    x0, x1, y0, y1 = x[i - 1], x[i], y[i - 1], y[i]
    return float(y0 + (y1 - y0) * (at - x0) / (x1 - x0))
