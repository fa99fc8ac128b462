"""The exact-beside-simulation table every game's exact check fills: per quantity the
exact value, the Monte Carlo estimate, its standard error, z and a flag past |z| > 4."""

from __future__ import annotations

import math

FLAG_Z = 4.0
COLUMNS = ["quantity", "seat", "exact", "estimate", "se", "z", "n", "measure", "value"]


class CheckTable:
    """Rows of exact against estimate; `frame()` gives the table with its flags."""

    def __init__(self, flag_z: float = FLAG_Z):
        self.rows: list[tuple] = []
        self.flag_z = flag_z

    def add(self, quantity: str, seat: int, exact: float, estimate: float, se: float, n: int,
            measure: str = "", value: int = -1) -> None:
        if n == 0:
            return
        if se > 0:
            z = (estimate - exact) / se
        else:  # every draw alike: the exact value must be that one, up to rounding
            z = 0.0 if abs(estimate - exact) < 1e-9 else math.inf
        self.rows.append((quantity, seat, exact, estimate, se, z, n, measure, value))

    def rate(self, quantity: str, seat: int, exact: float, k: int, n: int, measure: str = "",
             value: int = -1) -> None:
        """A probability estimated by k successes in n trials."""
        if n == 0:
            return
        est = k / n
        self.add(quantity, seat, exact, est, math.sqrt(max(est * (1 - est), 0.0) / n), n,
                 measure, value)

    def estimate(self, totals, quantity: str, seat: int, exact: float, k: str,
                 n: str = "") -> None:
        """sum(k) / sum(n) over a run's matches (sim.kit.records.Totals.ratio; n empty: a
        rate per match) beside its exact value; a rate seen as always or never takes its
        binomial error at the exact value, where the delta method would give none."""
        est, se, used = totals.ratio(k, n)
        if n == "" and se == 0:
            se = math.sqrt(max(exact * (1 - exact), 0.0) / max(used, 1))
        self.add(quantity, seat, exact, est, se, used)

    def mean(self, quantity: str, seat: int, exact: float, mean: float, var: float,
             n: int) -> None:
        """A mean estimated from n draws with sample variance var."""
        if n > 1:
            self.add(quantity, seat, exact, mean, math.sqrt(var / n), n)

    def frame(self):
        # deferred: pandas and pyarrow load only when records are read or written
        import pandas as pd

        df = pd.DataFrame(self.rows, columns=COLUMNS)
        df["flag"] = df.z.abs() > self.flag_z
        return df
