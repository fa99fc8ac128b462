"""Win rates, game lengths and descriptive card metrics from stored runs (card verdicts are
causal and live in analysis/verdicts.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.load import load_run
from analysis.quantities import evaluate, label, rate_specs, seat_labels
from sim.core.stats import mean_table, p_values, two_proportion_p, with_rate
from sim.kit.records import SEAT_LETTERS


def headline(run) -> pd.DataFrame:
    """Tidy table of the headline rates the game's schema names: quantity, k, n, rate, lo,
    hi (Wilson 95%); draws get their own row when there are any."""
    m = run.matches
    seats = seat_labels(run.deck_names, run.policy_names)
    rows = []
    for text, k, n in rate_specs(run.schema, seats):
        rows.append((text, int(evaluate(m, k).sum()), int(evaluate(m, n).sum())))
    df = pd.DataFrame(rows, columns=["quantity", "k", "n"])
    df = df[(df.quantity != "draws") | (df.k > 0)].reset_index(drop=True)
    return with_rate(df)


def first_player_edge(run, head: pd.DataFrame) -> pd.DataFrame:
    """How much starting first is worth: P(first player wins) - 1/seats (a fair share),
    with its interval."""
    r = head[head.quantity == f"{run.schema['first_player_label']} wins"].iloc[0]
    fair = 1 / run.seats
    return pd.DataFrame([{"quantity": f"{run.schema['first_player_label']} edge", "n": r.n,
                          "edge": r.rate - fair, "lo": r.lo - fair, "hi": r.hi - fair}])


def position_edge(run) -> pd.DataFrame:
    """Wins by turn position (0 the first player, 1 the next in turn order ...), whoever's
    deck sat there: k, n, rate with Wilson 95% interval, and the edge over a fair share
    1/seats. Position p is seat (first + p) mod seats; a match with no first player (-1:
    it ended before anyone went first) has no positions and is left out."""
    fp = run.matches[run.schema["first_player"]].to_numpy()
    winner = run.matches.winner.to_numpy()[fp >= 0]
    fp = fp[fp >= 0]
    n = len(winner)
    rows = [(p, int((winner == (fp + p) % run.seats).sum()), n) for p in range(run.seats)]
    out = with_rate(pd.DataFrame(rows, columns=["position", "k", "n"]))
    fair = 1 / run.seats
    out["edge"], out["edge_lo"], out["edge_hi"] = out.rate - fair, out.lo - fair, out.hi - fair
    return out


def seat_wins(run) -> pd.DataFrame:
    """Each seat's wins: seat, deck, policy, k, n, rate with Wilson 95% interval."""
    w = run.matches.winner.to_numpy()
    rows = [(s, d, p, int((w == s).sum()), len(w)) for s, (d, p)
            in enumerate(zip(run.deck_names, run.policy_names, strict=True))]
    return with_rate(pd.DataFrame(rows, columns=["seat", "deck", "policy", "k", "n"]))


def section_rates(run, rates) -> pd.DataFrame:
    """A game section's rates (schema Rate dicts) as a headline-style table."""
    decks = run.deck_names
    rows = [(label(r["label"], decks), int(evaluate(run.matches, r["k"]).sum()),
             int(evaluate(run.matches, r["n"]).sum())) for r in rates]
    return with_rate(pd.DataFrame(rows, columns=["quantity", "k", "n"]))


def game_lengths(run) -> pd.DataFrame:
    """The schema's length measures per match: n, mean with 95% interval, and quantiles."""
    cols = list(run.schema.get("lengths", {}))
    long = run.matches.melt(value_vars=cols, var_name="measure")
    out = mean_table(long, ["measure"], "value")
    q = long.groupby("measure")["value"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
    q.columns = [f"q{int(c * 100):02d}" for c in q.columns]
    return out.merge(q.reset_index(), on="measure")


def card_metrics(run) -> pd.DataFrame:
    """Per seat and card: drawn win rate (GIH WR), not-drawn win rate, improvement when
    drawn (with a two-proportion p-value), each of the game's card statistics per match,
    and the success rate of its use/success pair."""
    c = run.cards.copy()
    decks = run.deck_names
    schema = run.schema
    c.insert(0, "deck", [decks[s] for s in c.seat])
    c.insert(3, "name", c.card.map(run.card_names))
    c.insert(4, "label", c.card.map(run.card_labels))
    c["kind"] = c.card.map(run.card_kinds)
    c["matches_not_drawn"] = c.matches_in_deck - c.matches_drawn
    gih = with_rate(c.rename(columns={"wins_drawn": "k", "matches_drawn": "n"}))
    gns = with_rate(c.rename(columns={"wins_not_drawn": "k", "matches_not_drawn": "n"}))
    c["gih_wr"], c["gih_lo"], c["gih_hi"] = gih.rate, gih.lo, gih.hi
    c["gns_wr"], c["gns_lo"], c["gns_hi"] = gns.rate, gns.lo, gns.hi
    c["iwd"] = c.gih_wr - c.gns_wr
    c["iwd_p"] = two_proportion_p(c.wins_drawn, c.matches_drawn, c.wins_not_drawn,
                                  c.matches_not_drawn)
    # Every card of a deck shares the bias of "drawn in longer matches"; relative IWD
    # compares a card with the median card of its own deck, which is what a designer ranks.
    kinds = schema.get("flag_kinds", ())
    c["flagged"] = c.kind.isin(kinds) if kinds else True
    base = c[c.flagged].groupby("seat").iwd.median()
    c["iwd_relative"] = c.iwd - c.seat.map(base)
    se = np.sqrt(c.gih_wr * (1 - c.gih_wr) / c.matches_drawn.where(c.matches_drawn > 0)
                 + c.gns_wr * (1 - c.gns_wr)
                 / c.matches_not_drawn.where(c.matches_not_drawn > 0))

    c["iwd_relative_p"] = p_values(c.iwd_relative, se.fillna(0))
    matches = c.matches_in_deck.where(c.matches_in_deck > 0)
    for stat in schema.get("card_stats", {}):
        c[f"{stat}_per_match"] = c[stat] / matches
    use, success = schema.get("use_success", ("", ""))
    if use and success:
        ok = with_rate(c.rename(columns={success: "k", use: "n"}))
        c["success_rate"], c["success_lo"], c["success_hi"] = ok.rate, ok.lo, ok.hi
    return c


def matchup_matrix(root: Path | str) -> pd.DataFrame:
    """Round robin folder -> tidy matrix: row entrant, column entrant, win rate with interval."""
    root = Path(root)
    info = json.loads((root / "roundrobin.json").read_text())
    rows = []
    for p in info["pairings"]:
        run = load_run(root / p["run"])
        m = run.matches
        a, b = " / ".join(p["a"]), " / ".join(p["b"])
        rows.append((a, b, int((m.winner == 0).sum()), len(m)))
        rows.append((b, a, int((m.winner == 1).sum()), len(m)))
    return with_rate(pd.DataFrame(rows, columns=["entrant", "opponent", "k", "n"]))


def seat_matrix(run) -> pd.DataFrame:
    """One run as a small matchup matrix: deck A's win rate by which seat started (a match
    with no first player, -1, in no row)."""
    fp = run.schema["first_player"]
    who = run.schema["first_player_label"]
    letters = np.array([f"{SEAT_LETTERS[s].upper()} is {who}" for s in range(run.seats)])
    started = run.matches[run.matches[fp] >= 0]
    m = started.assign(first=letters[started[fp].to_numpy()],
                       a_wins=(started.winner == 0).astype(int))
    g = m.groupby("first")["a_wins"].agg(k="sum", n="count").reset_index()
    return with_rate(g)
