"""Designed experiments on common random numbers, for any registered game: card-value
sensitivity, card ablation, deck-composition sweeps and rule what-ifs. Each writes tidy
parquet tables into results/<id>/ and returns them; the game supplies the changed arms, and
the validator sees each before it plays (what it rejects is listed in `skipped`, never run)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analysis.quantities import arm_seat_names, linearised, per_match
from sim.core.problems import InputError, Problem, told_as
from sim.core.stats import Z95, bh, p_values, paired_difference, with_rate
from sim.experiments.arms import seat_local
from sim.kit import legality
from sim.kit.game import Game
from sim.kit.variants import Variant, by_deck
from sim.store.outputs import experiment_manifest, new_folder, save_tables


def _write(results, run_id, kind: str, df: pd.DataFrame, skipped: pd.DataFrame,
           manifest: dict) -> pd.DataFrame:
    """The experiment's table and the variants the validator rejected into a new folder; the
    returned table carries the rejected ones as attrs["skipped"]."""
    path = new_folder(results, run_id, kind)
    save_tables(path, {kind: df, "skipped": skipped}, {**manifest, "skipped": len(skipped)})
    df.attrs["skipped"] = skipped
    return df


def measured(kind: str, variants: list[Variant], skipped: pd.DataFrame, none: str) -> None:
    """An InputError naming the experiment when no variant is left to play: `none` when
    there were none, else every skipped one with its reason (nothing is written)."""
    if variants:
        return
    if not len(skipped):
        raise InputError([Problem(kind, 0, f"nothing measured: {none}")])
    raise InputError([Problem(kind, 0, "nothing measured: every variant was skipped (it "
                              "cannot be made or the validator rejects it):")]
                     + [Problem(kind, 0, f"{r.item}: {r.reason}") for r in skipped.itertuples()])


def _arm_row(v: Variant, delta: dict) -> dict:
    row = {"item": v.item, "card": v.card, "name": v.name, "seat": v.seat}
    if v.field:
        row["field"] = v.field
    if v.copies:
        row["copies"] = v.copies
    return {**row, **v.extra, **delta}


def sensitivity(game: Game, m, matches: int, seed: int, results="results", run_id=None,
                cards: list[str] | None = None, worth: bool = True) -> pd.DataFrame:
    """Per card and numeric value: the change in its deck's win rate per +1, from paired
    runs on the same seeds; plus the game's exact price of the card where it has one."""
    decks = [d.name for d in m.decks]
    if cards:  # an unknown card is the pool's error, with the nearest names
        found = {c: m.pool.lookup(c) for c in cards}
        unknown = [m.pool.unknown(c) for c, i in found.items() if i is None]
        if unknown:
            raise InputError([Problem("--card", 0, u) for u in unknown])
        cards = [m.pool.ids[i] for i in found.values()]
    made = [on_its_seat(game, m, v) for v in by_deck(game.value_edits(m, cards), decks)]
    starts = {(v.seat, v.card): start for start, v in made if start is not m}
    variants, skipped = legality.split(game, [v for _, v in made])
    measured("sensitivity", variants, skipped, "no numeric card value to change in either deck"
             + (f" of {', '.join(cards)}" if cards else ""))
    base = game.run_batch(m, matches, seed)
    rows, prices, bases = [], {}, {}
    for v in variants:
        if (v.seat, v.card) in starts and (v.seat, v.card) not in bases:
            bases[v.seat, v.card] = game.run_batch(starts[v.seat, v.card], matches, seed)
        rec = game.run_batch(v.matchup, matches, seed)
        d = paired_difference(bases.get((v.seat, v.card), base).wins(v.seat),
                              rec.wins(v.seat))
        rows.append({**_arm_row(v, d), "deck": decks[v.seat]})
        if worth and game.worth is not None and v.card not in prices:
            prices[v.card] = game.worth(m, v.seat, v.card)
    df = pd.DataFrame(rows)
    if prices and len(df):
        df[game.schema.worth_label or "worth"] = df.card.map(prices)
    return _write(results, run_id, "sensitivity", df, skipped,
                  experiment_manifest(game, m, seed, matches, "sensitivity"))


def on_its_seat(game: Game, m, v: Variant):
    """(baseline, variant) for a change of one card's values in one seat's deck alone: where
    another seat holds the card too, its copies there become a twin that keeps the values
    (sim.experiments.arms.seat_local), the change goes to the seat's own copies, and the
    baseline is that matchup unchanged; else (m, v). A card both decks hold changed in both
    would measure the two changes netted, not the deck's card."""
    if game.building is None or not v.card or v.matchup is None:
        return m, v
    local = seat_local(game, m, v.seat, v.card)
    if local is m:
        return m, v
    c = m.pool.ids.index(v.card)
    edited = v.matchup.pool.table[c]
    cells = {(c, int(j)): int(edited[j]) for j in np.flatnonzero(edited != m.pool.table[c])}
    return local, dataclasses.replace(
        v, matchup=dataclasses.replace(local, pool=local.pool.with_values(cells)))


def ablation(game: Game, m, matches: int, seed: int, results="results",
             run_id=None) -> pd.DataFrame:
    """The causal counterpart of card metrics: each card taken out of its deck (the game
    says with what filler), same seeds; the change in that deck's win rate (a positive
    delta: the card helps), with Benjamini-Hochberg control across cards."""
    decks = [d.name for d in m.decks]
    variants, skipped = legality.split(game, by_deck(game.ablations(m), decks))
    measured("ablation", variants, skipped, "no card to take out of either deck")
    base = game.run_batch(m, matches, seed)
    rows = []
    for v in variants:
        rec = game.run_batch(v.matchup, matches, seed)
        d = paired_difference(rec.wins(v.seat), base.wins(v.seat))
        rows.append({**_arm_row(v, d), "deck": decks[v.seat]})
    df = pd.DataFrame(rows)
    if len(df):
        df["p"] = p_values(df.delta, df.se)
        df["reject"], df["p_adjusted"] = bh(df.p.to_numpy())
    return _write(results, run_id, "ablation", df, skipped,
                  experiment_manifest(game, m, seed, matches, "ablation"))


def sweep(game: Game, m, seat: int, vary: str, values: list[int], matches: int, seed: int,
          results="results", run_id=None, options: dict | None = None) -> pd.DataFrame:
    """One seat's deck composition swept over `values` by one of the game's sweeps, the
    same seeds at every point: the win-rate curve, the optimum, each point's paired
    difference from it (vs_best, with its 95% interval) and the points not told apart from
    it (optimum_set: that interval reaches 0)."""
    if vary not in game.sweeps:
        raise InputError([Problem("--vary", 0, f"unknown sweep {vary!r}; one of "
                                  f"{', '.join(game.sweeps)}")])
    spec = game.sweeps[vary]
    options = options or {}
    if spec.needs_card and not options.get("card"):
        raise InputError([Problem("--card", 0, f"the {vary} sweep needs --card")])
    # An unknown card is the command's error, told before any point is built.
    c = m.pool.card(options["card"]) if spec.needs_card else -1
    card, name = (m.pool.ids[c], m.pool.names[c]) if c >= 0 else ("", "")
    rows, illegal, wins = [], [], []
    for value in values:
        try:
            v = spec.make(m, seat, value, options)
        except InputError as err:  # a point the deck's building refuses (no room for it)
            found, v = err.problems, None
        else:
            found = legality.problems(game, v.matchup)
        if found:
            illegal.append({"item": f"{vary}={value}", "card": v.card if v else card,
                            "name": v.name if v else name, "seat": seat,
                            "reason": legality.reason(found)})
            continue
        rec = game.run_batch(v.matchup, matches, seed)
        wins.append(rec.wins(seat))
        rows.append({"value": value, "k": int(rec.wins(seat).sum()), "n": matches,
                     "draws": int((rec.matches[:, 0] == -1).sum()), "deck": v.item, **v.extra})
    skipped = pd.DataFrame(illegal, columns=["item", "card", "name", "seat", "reason"])
    if not rows:
        raise InputError([Problem("--values", 0, "no value builds a legal deck (the deck's "
                                  "building or the validator refuses each): "
                                  f"{'; '.join(skipped.reason.unique())}")])
    df = with_rate(pd.DataFrame(rows))
    # Every point plays the same seeds, so a point is told apart from the best by its paired
    # difference, match by match; two intervals of their own may overlap where it is not.
    best = wins[int(df.rate.to_numpy().argmax())]
    vs = pd.DataFrame([paired_difference(best, w) for w in wins])
    df["vs_best"], df["vs_best_lo"], df["vs_best_hi"] = vs.delta, vs.lo, vs.hi
    df["optimum_set"] = ~(vs.hi < 0)
    return _write(results, run_id, "sweep", df, skipped,
                  {**experiment_manifest(game, m, seed, matches, "sweep"), "vary": vary,
                   "seat": seat, "options": options})


def whatif(game: Game, m, changes: dict, matches: int, seed: int, results="results",
           run_id=None, where: str = "--rules") -> pd.DataFrame:
    """Baseline and variant rules on the same seeds: deltas of the headline quantities with
    95% intervals (paired per match; histogram quantities by a paired bootstrap). Where the
    arms seat different numbers of players, a seat's rows that one arm lacks show that arm
    blank and no delta. `where`: the option the changes came from, that their errors name."""
    with told_as("--rules", where):
        variant = game.with_rules(m, changes)
    legality.require(game, variant, where)
    a = game.run_batch(m, matches, seed)
    b = game.run_batch(variant, matches, seed)
    names = arm_seat_names(*(tuple(d.name for d in x.decks) for x in (m, variant)))
    qa, qb = (per_match(game.schema_of(x).to_json(), rec.matches_frame(), seats)
              for x, rec, seats in ((m, a, names[0]), (variant, b, names[1])))
    df = pd.concat([compare_frames(qa, qb, paired=True),
                    _histogram_rows(a, b, seed, game.schema_of(m),
                                    *(game.describe(x).get("histogram_labels", {})
                                      for x in (m, variant)))],
                   ignore_index=True)
    df = df.rename(columns={"run_a": "baseline", "run_b": "variant"})
    path = new_folder(results, run_id, "whatif")
    save_tables(path, {"whatif": df}, {**experiment_manifest(game, m, seed, matches, "whatif"),
                                 "changes": changes})
    return df


def compare_frames(qa: dict, qb: dict, paired: bool) -> pd.DataFrame:
    """Every quantity of two arms (per_match of each) side by side with its delta and 95%
    interval: paired by match when the two share seeds, else as independent samples. A
    quantity of one arm only (a seat the other does not seat) has the other blank and no
    delta; the rows follow the arm with more of them."""
    first, second = (qa, qb) if len(qa) >= len(qb) else (qb, qa)
    rows = []
    for name in [*first, *(k for k in second if k not in first)]:
        xa = linearised(*qa[name]) if name in qa else None
        xb = linearised(*qb[name]) if name in qb else None
        if xa is None or xb is None:
            d = dict.fromkeys(("n", "delta", "se", "lo", "hi", "variance_reduction"), np.nan)
        elif paired:
            d = paired_difference(xa, xb)
        else:
            se = np.sqrt(xa.var(ddof=1) / len(xa) + xb.var(ddof=1) / len(xb))
            delta = xb.mean() - xa.mean()
            d = {"n": min(len(xa), len(xb)), "delta": delta, "se": se,
                 "lo": delta - Z95 * se, "hi": delta + Z95 * se, "variance_reduction": np.nan}
        rows.append({"item": name, "run_a": np.nan if xa is None else xa.mean(),
                     "run_b": np.nan if xb is None else xb.mean(), **d})
    return pd.DataFrame(rows)


def _histogram_rows(a, b, seed: int, schema, labels_a: dict, labels_b: dict) -> pd.DataFrame:
    """Quantiles of long histograms and P(value >= k) of short ones, pooled over matches,
    baseline against variant with a paired bootstrap over matches. A value is named by the
    run's label of its bin where both arms label it alike (an escalation index, not its
    rung); a measure with counts cut short (censored) counts only those that ended, and its
    rows say so: they answer "among those that ended", not the survival curve's question."""
    n = a.matches.shape[0]
    boots = np.random.default_rng(seed).integers(0, n, size=(200, n))
    rows = []
    for name in a.hists:
        bins = min(a.hists[name].shape[2], b.hists[name].shape[2])
        spec = schema.histograms.get(name)
        ended = " (among counts that ended)" if spec is not None and spec.censored else ""
        same = labels_a.get(name) == labels_b.get(name) and labels_a.get(name)
        shown = list(same) if same else list(range(bins))
        if bins > 16:
            stats = {f"{name} q{int(q * 100)}{ended}": (lambda c, q=q: _quantile(c, q))
                     for q in (0.5, 0.9)}
        else:
            stats = {f"P({name} >= {shown[k]}){ended}":
                     (lambda c, k=k: c[k:].sum() / max(c.sum(), 1)) for k in range(1, bins)}
        ha, hb = a.hists[name][:, :, :bins], b.hists[name][:, :, :bins]
        for item, stat in stats.items():
            base, var = stat(ha.sum(axis=(0, 1))), stat(hb.sum(axis=(0, 1)))
            deltas = np.array([stat(hb[i].sum(axis=(0, 1))) - stat(ha[i].sum(axis=(0, 1)))
                               for i in boots])
            lo, hi = np.quantile(deltas, [0.025, 0.975])
            rows.append({"item": item, "run_a": base, "run_b": var, "n": n,
                         "delta": var - base, "se": deltas.std(ddof=1), "lo": lo, "hi": hi,
                         "variance_reduction": np.nan})
    return pd.DataFrame(rows)


def _quantile(counts: np.ndarray, q: float) -> float:
    c = counts.cumsum()
    return float(np.searchsorted(c, q * c[-1]))
