"""Win rates, game lengths, card metrics and balance flags from stored runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.stats import bh, mean_table, two_proportion_p, with_rate

KINDS = ("coach", "stamina", "basic_shot", "trick_shot", "enhancement", "blank")
MIN_GAMES = 200  # fewer drawn (or not drawn) games than this: "not enough games"


def headline(run) -> pd.DataFrame:
    """Tidy table of the headline rates: quantity, k, n, rate, lo, hi (Wilson 95%)."""
    m = run.matches
    a, b = run.deck_names
    pa, pb = run.policy_names
    n = len(m)
    rows = [
        (f"{a} ({pa}) wins", int((m.winner == 0).sum()), n),
        (f"{b} ({pb}) wins", int((m.winner == 1).sum()), n),
        ("first server wins", int((m.winner == m.first_server).sum()), n),
        (f"{a} wins when serving first", int(((m.winner == 0) & (m.first_server == 0)).sum()),
         int((m.first_server == 0).sum())),
        (f"{a} wins when receiving first", int(((m.winner == 0) & (m.first_server == 1)).sum()),
         int((m.first_server == 1).sum())),
        ("ended by deck-out", int((m.end == 1).sum()), n),
        (f"{a} mulligans", int(m.mulligans_a.sum()), n),
        (f"{b} mulligans", int(m.mulligans_b.sum()), n),
    ]
    return with_rate(pd.DataFrame(rows, columns=["quantity", "k", "n"]))


def first_serve_edge(head: pd.DataFrame) -> pd.DataFrame:
    """How much the first serve is worth: P(first server wins) - 1/2, with its interval,
    from the headline table."""
    r = head[head.quantity == "first server wins"].iloc[0]
    return pd.DataFrame([{"quantity": "first-serve edge", "n": r.n, "edge": r.rate - 0.5,
                          "lo": r.lo - 0.5, "hi": r.hi - 0.5}])


def game_lengths(run) -> pd.DataFrame:
    """Points and turns per match: n, mean with 95% interval, and quantiles."""
    long = run.matches.melt(value_vars=["points", "turns"], var_name="measure")
    out = mean_table(long, ["measure"], "value")
    q = long.groupby("measure")["value"].quantile([0.05, 0.25, 0.5, 0.75, 0.95]).unstack()
    q.columns = [f"q{int(c * 100):02d}" for c in q.columns]
    return out.merge(q.reset_index(), on="measure")


def card_metrics(run) -> pd.DataFrame:
    """Per seat and card: games-in-hand win rate, not-drawn win rate, improvement when drawn
    (with a two-proportion p-value), play, hit and landing rates, turns dead in hand."""
    c = run.cards.copy()
    names = dict(zip(run.manifest["card_pool"]["ids"], _card_names(run), strict=True))
    decks = run.deck_names
    c.insert(0, "deck", [decks[s] for s in c.seat])
    c.insert(3, "name", c.card.map(names))
    c["games_not_drawn"] = c.games_in_deck - c.games_drawn
    gih = with_rate(c.rename(columns={"wins_drawn": "k", "games_drawn": "n"}))
    gns = with_rate(c.rename(columns={"wins_not_drawn": "k", "games_not_drawn": "n"}))
    c["gih_wr"], c["gih_lo"], c["gih_hi"] = gih.rate, gih.lo, gih.hi
    c["gns_wr"], c["gns_lo"], c["gns_hi"] = gns.rate, gns.lo, gns.hi
    c["iwd"] = c.gih_wr - c.gns_wr
    c["iwd_p"] = two_proportion_p(c.wins_drawn, c.games_drawn, c.wins_not_drawn,
                                  c.games_not_drawn)
    kinds = dict(zip(run.manifest["card_pool"]["ids"],
                     (row[0] for row in run.manifest["card_table"]), strict=True))
    c["kind"] = c.card.map(lambda cid: KINDS[kinds[cid]])
    # Every card of a deck shares the bias of "drawn in longer games"; relative IWD compares
    # a card with the median card of its own deck, which is what a designer ranks by.
    playable = c.kind.isin(["basic_shot", "trick_shot", "enhancement"])
    base = c[playable].groupby("seat").iwd.median()
    c["iwd_relative"] = c.iwd - c.seat.map(base)
    se = np.sqrt(c.gih_wr * (1 - c.gih_wr) / c.games_drawn.where(c.games_drawn > 0)
                 + c.gns_wr * (1 - c.gns_wr) / c.games_not_drawn.where(c.games_not_drawn > 0))
    from scipy.stats import norm

    c["iwd_relative_p"] = np.where(se > 0, 2 * norm.sf(np.abs(c.iwd_relative / se)), 1.0)
    games = c.games_in_deck.where(c.games_in_deck > 0)
    c["plays_per_game"] = c.played / games
    c["hits_per_game"] = c.hit / games
    landed = with_rate(c.rename(columns={"landed": "k", "hit": "n"}))
    c["land_rate"], c["land_lo"], c["land_hi"] = landed.rate, landed.lo, landed.hi
    c["dead_turns_per_game"] = c.dead_turns / games
    return c


def _card_names(run) -> list[str]:
    from sim.paintline.pool import load_pool

    ids = run.manifest["card_pool"]["ids"]
    try:
        pool = load_pool(run.manifest["card_pool"]["path"])
        if list(pool.ids) == ids:
            return list(pool.names)
    except Exception:  # the pool file moved or changed: fall back to the ids
        pass
    return list(ids)


def balance_flags(cards: pd.DataFrame, alpha: float = 0.05,
                  effect: str = "iwd_relative", p: str = "iwd_relative_p") -> pd.DataFrame:
    """Over- and under-powered cards (shots and enhancements) with Benjamini-Hochberg
    control of false discoveries; cards drawn (or missed) in fewer than MIN_GAMES games get
    "not enough games"."""
    df = cards[cards.kind.isin(["basic_shot", "trick_shot", "enhancement"])].copy()
    enough = (df.games_drawn >= MIN_GAMES) & (df.games_not_drawn >= MIN_GAMES)
    df["p_adjusted"] = np.nan
    reject = np.zeros(len(df), dtype=bool)
    if enough.any():
        r, adj = bh(df.loc[enough, p].to_numpy(), alpha)
        reject[enough.to_numpy()] = r
        df.loc[enough, "p_adjusted"] = adj
    verdict = np.where(~enough, "not enough games",
                       np.where(reject & (df[effect] > 0), "over-powered",
                                np.where(reject & (df[effect] < 0), "under-powered",
                                         "no evidence")))
    df["verdict"] = verdict
    return df


def robustness(by_policy: dict[str, pd.DataFrame], effect: str = "iwd") -> pd.DataFrame:
    """A card's verdict across policies: flags a sign change of its effect or a large rank
    change (more than a third of the cards) between any two policies."""
    frames = []
    for policy, df in by_policy.items():
        d = df[["deck", "card", effect]].copy()
        d["policy"] = policy
        d["rank"] = d.groupby("deck")[effect].rank(ascending=False)
        frames.append(d)
    long = pd.concat(frames, ignore_index=True)
    g = long.groupby(["deck", "card"])
    out = g.agg(policies=("policy", "nunique"), effect_min=(effect, "min"),
                effect_max=(effect, "max"), rank_min=("rank", "min"), rank_max=("rank", "max"))
    n_cards = long.groupby("deck").card.nunique()
    out = out.reset_index()
    out["sign_change"] = (out.effect_min < 0) & (out.effect_max > 0)
    out["rank_change"] = (out.rank_max - out.rank_min) > out.deck.map(n_cards) / 3
    out["robust"] = (out.policies >= 3) & ~out.sign_change & ~out.rank_change
    return out


def matchup_matrix(root: Path | str) -> pd.DataFrame:
    """Round robin folder -> tidy matrix: row entrant, column entrant, win rate with interval."""
    from analysis.load import load_run

    root = Path(root)
    info = json.loads((root / "roundrobin.json").read_text())
    rows = []
    for p in info["pairings"]:
        run = load_run(root / p["run"])
        m = run.matches
        a, b = " / ".join(p["a"]), " / ".join(p["b"])
        k = int((m.winner == 0).sum())
        rows.append((a, b, k, len(m)))
        rows.append((b, a, len(m) - k, len(m)))
    return with_rate(pd.DataFrame(rows, columns=["entrant", "opponent", "k", "n"]))


def seat_matrix(run) -> pd.DataFrame:
    """One run as a small matchup matrix: deck A's win rate by who served first."""
    m = run.matches.assign(first=np.where(run.matches.first_server == 0, "A serves first",
                                          "B serves first"),
                           a_wins=(run.matches.winner == 0).astype(int))
    g = m.groupby("first")["a_wins"].agg(k="sum", n="count").reset_index()
    return with_rate(g)
