"""A card's worth against the field: the card against par, its deck facing each deck of the
folder's field in turn (the other seat), on the same seeds under the policy that played its
deck best, weighted by the field's Nash mix (the field's decks played against each other in
the run's matchup, both seats)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.meta import matrix, nash
from analysis.verdicts import contrast
from sim.core.problems import InputError, Problem
from sim.core.stats import Z95
from sim.experiments.arms import Arms, seat_local, seat_policies
from sim.experiments.meta import Field, scores
from sim.kit import legality


def field_decks(game, m, folder, names: list[str]) -> dict[str, dict[str, int]]:
    """Each field deck's card counts, read from the folder under the run's policies; an
    InputError when the validator refuses one in the run's matchup (its rule options and
    card values may not be the folder's: a deck_size agreed on, a card made rare)."""
    fld = Field(game, folder, list(names), m.policy_names[0])
    decks, refused = {}, []
    for i, n in enumerate(names):
        shipped = fld.pair(i, i)
        decks[n] = game.building.counts(shipped, 0)
        found = legality.problems(game, seated(game, m, 1, n, decks[n]))
        if found:
            refused.append(Problem(str(getattr(shipped.decks[0], "path", n)), 0,
                                   f"field deck {n} in this run's matchup: "
                                   + legality.reason(found)))
    if refused:
        raise InputError(refused)
    return decks


def seated(game, m, seat: int, name: str, counts: dict[str, int]):
    """The run's matchup (its cards, rules and policies) with `seat` playing those counts."""
    return game.building.with_counts(m, seat, counts, name)


def nash_mix(game, m, decks: dict[str, dict[str, int]], arms: Arms, n: int) -> np.ndarray:
    """The field's Nash mix: every ordered pair of its decks in the run's matchup, n
    matches each on the shared seed."""
    names = list(decks)
    sc = {}
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j:
                mm = seated(game, seated(game, m, 0, a, decks[a]), 1, b, decks[b])
                rec = game.run_batch(mm, n, arms.seed)
                arms.played += n
                sc[i, j] = scores(rec.matches[:, 0], 0)
    M, _ = matrix(sc, len(names))
    return nash(M)


def field_worth(game, m, seed: int, verdicts: pd.DataFrame, pars: dict, folder,
                names: list[str], n: int, trained: str | None = None
                ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the verdict table with field_worth, its interval and the Nash weights' deck; one row
    per card and field deck: worth per copy against par with its standard error and the
    deck's weight). `pars`: each judged card's par values, as the verdicts set them
    ({(seat, card id): values}). attrs of the second: matches, nash ({deck: weight})."""
    policies, _ = seat_policies(game, folder, trained)
    decks = field_decks(game, m, folder, names)
    arms = Arms(game, seed)
    weights = dict(zip(decks, nash_mix(game, m, decks, arms, n), strict=True))
    rows, totals = [], []
    for r in verdicts.itertuples():
        if not isinstance(r.policy, str) or r.policy not in policies:
            totals.append((np.nan, np.nan))
            continue
        other = 1 - r.seat
        values = pars[r.seat, r.card]
        put = policies[r.policy]
        combined = np.zeros(n)
        for name, counts in decks.items():
            faced = seated(game, m, other, name, counts)
            own = seat_local(game, faced, r.seat, r.card)
            at_par = ("par", r.seat, r.card, r.policy, name)
            if getattr(r, "as_par", False):  # its best play read the card as par
                base = ("view", r.seat, r.card, r.policy, name)
                arms.add(base, [put(v, r.seat) for v in game.power.read_as(own, r.seat, values)],
                         r.seat)
            else:
                base = ("base", r.seat, r.policy, name)
                arms.add(base, put(faced, r.seat), r.seat)
            arms.add(at_par, [put(v, r.seat) for v in game.power.made(own, values)], r.seat)
            diff = (arms.extend(base, n).astype(float) - arms.extend(at_par, n)) / r.copies
            worth, se = contrast(diff)
            rows.append({"seat": r.seat, "deck": r.deck, "card": r.card, "label": r.label,
                         "against": name, "weight": weights[name], "n": n,
                         "worth": worth, "worth_se": se})
            combined += weights[name] * diff
        totals.append(contrast(combined))
    out = verdicts.copy()
    out["field_worth"] = [t[0] for t in totals]
    se = np.array([t[1] for t in totals])
    out["field_worth_lo"] = out.field_worth - Z95 * se
    out["field_worth_hi"] = out.field_worth + Z95 * se
    table = pd.DataFrame(rows)
    table.attrs.update({"matches": arms.played, "nash": weights})
    return out, table
