"""A field's health: whether several of its decks are worth playing (the Nash mix holds at
least `support` decks with an effective number of at least `diversity`, no deck is
dominated, every deck's rate against the field inside the band), judged on a win-rate
matrix, and a distance from health that a search can descend."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy.optimize import linprog


def nash(M: np.ndarray) -> np.ndarray:
    """The maximin mix of the symmetric zero-sum game with payoff M - 0.5 (value 0), by
    linear programming: maximise v subject to every column paying the mix at least v."""
    k = len(M)
    A = np.asarray(M, float) - 0.5
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-A.T, np.ones((k, 1))])
    a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, 1)] * k + [(None, None)], method="highs")
    if not res.success:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"linprog: {res.message}")
    x = np.clip(res.x[:k], 0, None)
    return x / x.sum()


def effective_decks(x: np.ndarray) -> float:
    """exp(entropy) of a mix: 1 for one deck, k for k decks played equally."""
    p = np.asarray(x, float)
    p = p[p > 1e-12]
    return float(np.exp(-(p * np.log(p)).sum()))


def dominated(M: np.ndarray, names: list[str], lo=None, hi=None) -> pd.DataFrame:
    """Decks another deck dominates: it scores at least as much against every deck of the
    field (both of them included) and more against one of the others (in a field of two,
    against the other deck itself). Two decks of the same cards score alike against every
    other deck, and their head-on cell is the noise of a deck against itself: neither
    dominates the other. `clear`: also at the interval ends (the dominating deck's lower
    ends against the dominated deck's upper ends)."""
    k = len(M)
    rows = []
    for i in range(k):
        for d in range(k):
            if d == i:
                continue
            diff = M[d] - M[i]
            others = [j for j in range(k) if j not in (i, d)] or [i]
            if (diff >= 0).all() and (diff[others] > 0).any():
                clear = (lo is not None and
                         all(lo[d, j] >= hi[i, j] for j in range(k) if j not in (i, d)))
                rows.append({"deck": names[i], "dominated_by": names[d],
                             "least_margin": float(diff[[j for j in range(k) if j != d]].min()),
                             "clear": bool(clear)})
    return pd.DataFrame(rows, columns=["deck", "dominated_by", "least_margin", "clear"])


# A deck counts in the Nash mix's support when a player picks it at least this often:
# a weight of a few thousandths is the solver's rounding, not a deck worth playing.
IN_MIX = 0.05
# A shortfall of one effective deck weighs as much as this much win rate outside the band.
DIVERSITY_WEIGHT = 0.05
# A challenger takes the field over when a player would pick it at least this often in the
# Nash mix; each point of Nash weight over it weighs as much as 0.1 of win rate.
TAKES_OVER = 0.5
TAKEOVER_WEIGHT = 0.1


@dataclass(frozen=True)
class Target:
    """What a healthy field reaches: every deck's rate against the field in lo .. hi; and,
    where `support` is set, at least that many decks in the Nash mix, an effective number
    of decks of at least `diversity`, and no deck dominated. Where `core` is set, only the
    first `core` decks are the field's own: the decks after them are challengers (decks a
    search found in the pool), which may be weak or dominated but must not take the Nash
    mix over (a weight of TAKES_OVER or more)."""

    lo: float = 0.45
    hi: float = 0.55
    support: int | None = None
    diversity: float | None = None
    core: int | None = None

    @property
    def health(self) -> bool:
        return self.support is not None

    def inside(self, margin: float) -> Target:
        """The band `margin` inside this one on each side (at most a quarter of its width)."""
        m = min(margin, (self.hi - self.lo) / 4)
        return replace(self, lo=self.lo + m, hi=self.hi - m)


def default_target(k: int, lo: float, hi: float, support: int | None = None,
                   diversity: float | None = None, health: bool = True) -> Target:
    """The target for a field of k decks: all but one deck in the mix, an effective number
    of k - 1.5 (2.5 of 4), unless named. Two decks have no health beyond the band: unless
    their matchup is exactly even, one scores more against both and dominates the other."""
    if not health or k < 3:
        return Target(lo, hi)
    return Target(lo, hi, k - 1 if support is None else support,
                  k - 1.5 if diversity is None else diversity)


def rates(M: np.ndarray) -> np.ndarray:
    """Each deck's mean score against the other decks."""
    k = len(M)
    return (np.asarray(M, float).sum(axis=1) - 0.5) / (k - 1)


def regrets(M: np.ndarray, mix: np.ndarray) -> np.ndarray:
    """How much each deck scores under the game's value (0.5) against the Nash mix: 0 for a
    deck a player could pick in the mix, more for a deck the mix beats."""
    r = 0.5 - np.asarray(M, float) @ mix
    return np.where(r > 1e-9, r, 0.0)  # the solver's rounding is no regret


def judge(M: np.ndarray, names: list[str], target: Target) -> dict:
    """The field's health on a matrix: the Nash mix, its support and effective number, the
    dominated decks, each deck's rate and whether it is inside the band, `healthy`, and in
    `reasons` each part of the target it misses, in words."""
    mix = nash(M)
    own = own_decks(len(M), target)
    r = own_rates(M, own)
    inside = (r >= target.lo) & (r <= target.hi)
    dom = dominated(M, names)
    out = {"mix": mix, "rates": r, "inside": inside, "support": int((mix >= IN_MIX).sum()),
           "effective": effective_decks(mix),
           "dominated": dom[dom.deck.isin([names[i] for i in own])].reset_index(drop=True)}
    reasons = [f"{names[i]} at {r[i]:.3f} against the field, outside {target.lo}.."
               f"{target.hi}" for i in own if not inside[i]]
    reasons += [f"{names[i]}, a challenger, takes the Nash mix over (weight {mix[i]:.2f})"
                for i in range(len(M)) if i not in own and mix[i] >= TAKES_OVER]
    if target.health:
        if out["support"] < target.support:
            reasons.append(f"the Nash mix holds {out['support']} of the {target.support} "
                           f"decks asked for (weight {IN_MIX} or more)")
        if out["effective"] < target.diversity:
            reasons.append(f"effective number of decks {out['effective']:.2f}, under "
                           f"{target.diversity}")
        reasons += [f"{row.deck} dominated by {row.dominated_by} (least margin "
                    f"{row.least_margin:.3f})" for row in out["dominated"].itertuples()]
    out["reasons"] = reasons
    out["healthy"] = not reasons
    return out


def own_decks(k: int, target: Target) -> range:
    """The field's own decks of a matrix of k (the challengers come after them)."""
    return range(k if target.core is None else min(target.core, k))


def own_rates(M: np.ndarray, own: range) -> np.ndarray:
    """Each of the field's own decks' mean score against the others of its own: the band
    is the field as it is played, which a challenger no one picks does not move."""
    return rates(np.asarray(M, float)[own.start:own.stop, own.start:own.stop])


def distance(M: np.ndarray, target: Target, margin: float = 0.0) -> float:
    """How far the field is from health, in win rate, 0 when every part is met with
    `margin` to spare: the band's distance summed over the field's own decks; for each of
    them and each other deck, how far it is from beating that deck somewhere by `margin`
    (domination); the sum of the `support` smallest regrets against the Nash mix (all zero
    when that many decks are in it); DIVERSITY_WEIGHT per effective deck missing; and
    TAKEOVER_WEIGHT per point of a challenger's Nash weight over TAKES_OVER less `margin`."""
    M = np.asarray(M, float)
    k = len(M)
    own = own_decks(k, target)
    r = own_rates(M, own)
    out = float(np.sum(np.maximum(0, target.lo - r) + np.maximum(0, r - target.hi)))
    if not target.health:
        return out
    for i in own:
        for d in range(k):
            if d != i:
                # Deck i is clear of d when it scores `margin` more than d against some deck.
                out += max(0.0, float((M[d] - M[i]).min()) + margin)
    mix = nash(M)
    out += float(np.sort(regrets(M, mix))[:target.support].sum())
    out += DIVERSITY_WEIGHT * max(0.0, target.diversity - effective_decks(mix))
    out += TAKEOVER_WEIGHT * float(np.maximum(0, mix[len(own):] - TAKES_OVER + margin).sum())
    return out
