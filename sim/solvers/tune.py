"""Inverse questions on common random numbers: the value of a card field or rule option that
brings a headline rate to a target, by a refined integer search or stochastic bisection."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.plots import plot_curve
from analysis.quantities import linearised, per_match
from sim.core.problems import InputError, Problem
from sim.core.stats import Z95, wilson
from sim.kit import legality
from sim.kit.variants import cards_in_play
from sim.store.outputs import experiment_manifest, new_folder, save_tables

# evaluate(value, n, first_match) -> (per-match values, per-match denominators or None):
# matches first_match .. first_match + n - 1 of the one seed every value shares.
Evaluate = Callable[[float, int, int], tuple[np.ndarray, np.ndarray | None]]


@dataclass
class Arm:
    """Per-match values of one candidate value, matches 0 .. n-1 of the shared seed."""

    value: float
    k: np.ndarray = field(default_factory=lambda: np.zeros(0))
    d: np.ndarray | None = None  # denominators of a ratio rate

    @property
    def n(self) -> int:
        return len(self.k)

    def extend(self, evaluate: Evaluate, n: int) -> None:
        """Play the next n matches of the shared stream."""
        k, d = evaluate(self.value, n, self.n)
        self.k = np.concatenate([self.k, np.asarray(k, dtype=np.float64)])
        if d is not None:
            prev = self.d if self.d is not None else np.zeros(0)
            self.d = np.concatenate([prev, np.asarray(d, dtype=np.float64)])

    def linear(self, n: int | None = None) -> np.ndarray:
        """Per-match values whose mean is the rate over the first n matches (a ratio by
        its delta-method linearisation)."""
        n = self.n if n is None else n
        return linearised(self.k[:n], None if self.d is None else self.d[:n])

    def estimate(self) -> tuple[float, float, float]:
        """(rate, lo, hi): Wilson for a 0/1 rate, else the normal interval of the mean."""
        if self.d is None and np.isin(self.k, (0.0, 1.0)).all():
            lo, hi = wilson(self.k.sum(), self.n)
            return float(self.k.mean()), float(lo), float(hi)
        x = self.linear()
        half = Z95 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else np.nan
        return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


def summarise(arms: list[Arm], target: float) -> pd.DataFrame:
    """One row per value: rate and interval, distance to the target, whether the target
    lies in the interval, the bracketing pair, the best value and those not told apart
    from it (paired on their common matches)."""
    rows = []
    for arm in sorted(arms, key=lambda a: a.value):
        rate, lo, hi = arm.estimate()
        rows.append({"value": arm.value, "n": arm.n, "rate": rate, "lo": lo, "hi": hi,
                     "distance": abs(rate - target), "consistent": lo <= target <= hi})
    df = pd.DataFrame(rows)
    side = np.sign(df.rate - target).to_numpy()
    crossing = np.zeros(len(df), dtype=bool)
    for i in range(len(df) - 1):
        if side[i] * side[i + 1] <= 0:
            crossing[i] = crossing[i + 1] = True
    df["brackets"] = crossing
    best = int(df.distance.idxmin())
    by_value = {a.value: a for a in arms}
    b = by_value[df.value[best]]
    same, gap_lo = [], []
    for i, row in df.iterrows():
        a = by_value[row.value]
        n = min(a.n, b.n)
        # |rate_v - t| - |rate_b - t| per match, the signs taken from the estimates.
        diff = side[i] * (a.linear(n) - target) - side[best] * (b.linear(n) - target)
        se = diff.std(ddof=1) / np.sqrt(n) if n > 1 else np.inf
        lo = diff.mean() - Z95 * se
        gap_lo.append(lo)
        same.append(i == best or not lo > 0)
    df["gap_lo"] = gap_lo
    df["indistinguishable"] = same
    df["best"] = df.index == best
    return df


def target_place(df: pd.DataFrame, target: float) -> str:
    """Where the target lies among the values' rates, in one sentence (a table of
    `summarise`): inside some values' 95% intervals; else between two neighbours' rates;
    else outside them all, which is when wider values are worth trying."""
    held = [f"{v:g}" for v in df.value[df.consistent.astype(bool)]]
    if held:
        return (f"the target {target:g} lies within the 95% interval of {', '.join(held)}: "
                "not told apart from the rate there")
    side = np.sign(df.rate - target).to_numpy()
    pairs = [(df.value.iat[i], df.value.iat[i + 1]) for i in range(len(df) - 1)
             if side[i] * side[i + 1] <= 0]
    if pairs:
        return (f"the target {target:g} lies between the rates of "
                + "; ".join(f"{a:g} and {b:g}" for a, b in pairs)
                + ", and no value's interval holds it")
    return (f"the target {target:g} is outside the rates of these values and no interval "
            "reaches it: widen --values or tune another field")


def search_integers(evaluate: Evaluate, values: list[int], target: float, matches: int,
                    max_matches: int, precision: float = 0.01, progress=None) -> pd.DataFrame:
    """Every value on the same matches; then, round by round, the values not told apart
    from the best get twice the matches (the next matches of the same stream), and so does
    the best while its interval is wider than +- precision; until one value stands alone
    with that precision, or the values still in question have max_matches."""
    if not values:
        raise InputError([Problem("--values", 0, "no values to try")])
    arms = [Arm(v) for v in sorted(set(values))]
    for arm in arms:
        arm.extend(evaluate, matches)
    rounds = 0
    while True:
        df = summarise(arms, target)
        if progress:
            progress(rounds, df)
        close = set(df.value[df.indistinguishable])
        top = df[df.best].iloc[0]
        if (top.hi - top.lo) / 2 <= precision and len(close) == 1:
            break
        grow = [a for a in arms if a.value in close and a.n < max_matches]
        if not grow:
            break
        rounds += 1
        for arm in grow:
            arm.extend(evaluate, min(arm.n, max_matches - arm.n))
    df["rounds"] = rounds
    return df


def bisect(evaluate: Evaluate, lo: float, hi: float, target: float, matches: int,
           max_matches: int, tolerance: float, progress=None) -> tuple[pd.DataFrame, dict]:
    """Stochastic bisection of a monotone rate on [lo, hi], every point on the same
    matches. Stopping rule: at each midpoint, matches double until the 95% interval
    excludes the target, which decides the side; stop when the bracket is narrower than
    `tolerance`, or when a midpoint's interval still holds the target at max_matches
    (that midpoint is then the answer: the rate there is not told apart from it)."""
    ends = [Arm(lo), Arm(hi)]
    for arm in ends:
        arm.extend(evaluate, matches)
    r_lo, r_hi = ends[0].estimate()[0], ends[1].estimate()[0]
    if (r_lo - target) * (r_hi - target) > 0:
        raise InputError([Problem("--values", 0, f"the target {target} is not between the "
                                  f"rates at the ends: {r_lo:.4f} at {lo}, {r_hi:.4f} at {hi}")])
    rising = r_hi > r_lo
    arms = list(ends)
    answer, reason = None, "bracket narrower than the tolerance"
    while hi - lo > tolerance:
        arm = Arm((lo + hi) / 2)
        arm.extend(evaluate, matches)
        rate, a, b = arm.estimate()
        while a <= target <= b and arm.n < max_matches:
            arm.extend(evaluate, min(arm.n, max_matches - arm.n))
            rate, a, b = arm.estimate()
        arms.append(arm)
        if progress:
            progress(len(arms), summarise(arms, target))
        if a <= target <= b:
            answer, reason = arm.value, "rate not told apart from the target at max matches"
            break
        if (rate > target) == rising:
            hi = arm.value
        else:
            lo = arm.value
    df = summarise(arms, target)
    value = answer if answer is not None else (lo + hi) / 2
    return df, {"value": value, "bracket": [lo, hi], "stopped": reason}


def parse_values(text: str | None, current: float | None, integer: bool) -> list[float]:
    """"LO..HI" (whole numbers: every one; else the two ends), "A,B,C", or around the
    current value (current - 5 .. current + 5, not below 0)."""
    if not text:
        if current is None:
            raise InputError([Problem("--values", 0, "give the values to try (LO..HI or "
                                      "A,B,C): this game does not say the current value")])
        if not integer:
            return [current / 2, current * 2] if current > 0 else [0.0, 1.0]
        return list(range(max(0, int(current) - 5), int(current) + 6))
    try:
        if ".." in text:
            a, b = (float(x) for x in text.split(".."))
            if a > b:
                raise InputError([Problem("--values", 0, f"{text} is reversed: LO..HI with "
                                          f"LO first, e.g. {b:g}..{a:g}")])
            if integer:
                return list(range(int(a), int(b) + 1))
            return [a, b]
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise InputError([Problem("--values", 0, f"expects LO..HI or A,B,C, got {text!r}")]) \
            from None


def target_setter(game, m, what: str, load: Callable[[list[str]], object]):
    """(value -> matchup with `what` set, current value or None, whole numbers?): `what`
    is a rule option of the matchup or a card field CARD.FIELD (through `load`, which
    rebuilds the matchup with extra "CARD.FIELD=VALUE" sets)."""
    rules = game.describe(m)["rules"]
    if what in rules:
        current = rules[what]
        if game.options.by_name[what].kind != "whole":
            raise InputError([Problem("tune", 0, f"rule option {what!r} is not numeric "
                                      f"({current!r})")])
        return (lambda v: game.with_rules(m, {what: int(v)})), current, True
    if "." not in what:
        raise InputError([Problem("tune", 0, f"{what!r} is neither a rule option ("
                                  f"{', '.join(rules)}) nor CARD.FIELD")])
    card = m.pool.lookup(what.rpartition(".")[0])
    held = cards_in_play(game, m)
    if card is not None and held is not None and m.pool.ids[card] not in held:
        raise InputError([Problem("tune", 0, f"nothing to tune: no deck of the matchup holds "
                                  f"{m.pool.names[card]!r} and no rule option names it, so no "
                                  f"value of {what} moves a match")])
    current = game.tuning.card_value(m, what) if game.tuning is not None else None
    integer = current is None or isinstance(current, int)

    def arm(v):
        text = str(int(v)) if integer else repr(float(v))
        return load([f"{what}={text}"])

    if current is None:
        arm(0)  # a bad card or field fails here, before any match is played
    return arm, current, integer


def legal_arm(game, arm: Callable[[float], object], what: str) -> Callable[[float], object]:
    """The arm, refusing (InputError) a value whose matchup the validator rejects."""

    def checked(v):
        made = arm(v)
        legality.require(game, made, f"{what}={v}")
        return made

    return checked


def evaluator(game, arm: Callable[[float], object], decks: tuple[str, str], rate: str,
              seed: int) -> Evaluate:
    """Matches of the shared seed at a value, as the per-match quantity `rate`."""
    schema = game.schema.to_json()
    made = {}

    def evaluate(value, n, first):
        if value not in made:
            made[value] = arm(value)
        rec = game.run_batch(made[value], n, seed, first_match=first)
        return per_match(schema, rec.matches_frame(), decks)[rate]

    return evaluate


def rate_labels(game, decks: tuple[str, str]) -> list[str]:
    """The quantities tune can aim at: the headline rates and lengths of the game."""
    cols = list(game.schema.match_columns)
    empty = pd.DataFrame({c: np.zeros(1, dtype=np.int64) for c in cols})
    return list(per_match(game.schema.to_json(), empty, decks))


def plot(df: pd.DataFrame, target: float, what: str, rate: str):
    """Rate against value with its 95% band and the target line."""
    ax = plot_curve(df, "value", label=rate)
    ax.axhline(target, color="#888888", linestyle=":", label=f"target {target}")
    best = df[df.best]
    ax.plot(best.value, best.rate, "*", markersize=14, color="#d62728", label="best")
    ax.set_xlabel(what)
    ax.set_ylabel(f"{rate} (95% interval)")
    ax.legend(frameon=False)
    return ax


def tune(game, m, what: str, target: float, load: Callable[[list[str]], object],
         rate: str | None = None, values: str | None = None, matches: int = 4000,
         max_matches: int = 64_000, seed: int = 1, tolerance: float | None = None,
         results="results", run_id: str | None = None, progress=None,
         precision: float = 0.01):
    """Solve rate(value of `what`) = target; write tune.parquet, tune.png and the manifest
    into results/<id>/. Returns (table, answer: dict)."""
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib.pyplot as plt

    # A half-width of 0 is never reached and a bracket width of 0 or below never stops.
    if not precision > 0:
        raise InputError([Problem("--precision", 0, f"a half-width above 0, got {precision}")])
    if tolerance is not None and not tolerance > 0:
        raise InputError([Problem("--tolerance", 0, f"a width above 0, got {tolerance}")])
    if max_matches < matches:
        raise InputError([Problem("--max-matches", 0, f"at least --matches ({matches}), got "
                                  f"{max_matches}")])
    if not 0 <= target <= 1 and rate is None:
        raise InputError([Problem("--target", 0, f"a win rate is in 0 .. 1, got {target}")])
    decks = (m.decks[0].name, m.decks[1].name)
    labels = rate_labels(game, decks)
    rate = rate or labels[0]
    if rate not in labels:
        raise InputError([Problem("--rate", 0, f"unknown rate {rate!r}; one of "
                                  f"{', '.join(labels)}")])
    arm, current, integer = target_setter(game, m, what, load)
    vals = parse_values(values, current, integer)
    arm = functools.cache(arm)  # each value's matchup built once: checked here, played later
    skipped = []
    if integer:  # values whose deck or card table the validator rejects are never played
        legal = []
        for v in vals:
            try:
                found = legality.problems(game, arm(v))
            except InputError as err:  # the card table refuses the value itself
                found = err.problems
            if found:
                skipped.append({"value": v, "reason": legality.reason(found)})
            else:
                legal.append(v)
        if not legal:
            raise InputError([Problem("--values", 0, f"no legal value of {what}: "
                                      f"{'; '.join(s['reason'] for s in skipped)}")])
        vals = legal
    arm = legal_arm(game, arm, what)
    evaluate = evaluator(game, arm, decks, rate, seed)
    if integer:
        df = search_integers(evaluate, [int(v) for v in vals], target, matches, max_matches,
                             precision, progress)
        best = df[df.best].iloc[0]
        answer = {"value": int(best.value), "stopped": "one value left or max matches"}
    else:
        if len(vals) != 2 or vals[0] >= vals[1]:
            raise InputError([Problem("--values", 0, "a continuous option needs LO..HI")])
        tol = tolerance or (vals[1] - vals[0]) / 64
        df, answer = bisect(evaluate, vals[0], vals[1], target, matches, max_matches, tol,
                            progress)
        best = df.iloc[(df.value - answer["value"]).abs().argmin()]
    answer.update({"quantity": rate, "rate": float(best.rate), "lo": float(best.lo),
                   "hi": float(best.hi), "n": int(best.n), "current": current,
                   "indistinguishable": [v for v in df.value[df.indistinguishable]],
                   "skipped": skipped})
    path = new_folder(results, run_id, "tune")
    ax = plot(df, target, what, rate)
    ax.figure.savefig(path / "tune.png", dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    save_tables(path, {"tune": df}, {**experiment_manifest(game, m, seed, matches, "tune"),
                                     "what": what, "target": target, "rate": rate,
                                     "max_matches": max_matches, "precision": precision,
                                     "answer": answer})
    answer["path"] = str(path)
    return df, answer
