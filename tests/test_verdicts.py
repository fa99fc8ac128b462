"""Causal card verdicts: the decision rule on hand-made numbers, and the adaptive rounds on a
stand-in game whose true card worths are known, so every verdict can be checked."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from analysis.verdicts import beyond_margin_p, classify, consensus
from sim.game import Schema, Variant
from sim.problems import Problem
from sim.verdicts import Precision, card_verdicts


def test_beyond_margin_p_by_hand():
    # est 0.03, se 0.01, margin 0.01: z = 2, one-sided p = 0.02275
    assert beyond_margin_p([0.03], [0.01], 0.01)[0] == pytest.approx(0.0227501, abs=1e-6)
    assert beyond_margin_p([-0.03], [0.01], 0.01)[0] == pytest.approx(0.0227501, abs=1e-6)
    assert beyond_margin_p([0.01], [0.01], 0.01)[0] == pytest.approx(0.5)
    assert beyond_margin_p([0.0], [0.0], 0.01)[0] == 1.0


def test_classify_by_hand():
    df = pd.DataFrame({"card": list("xyzwm"),
                       "relative": [0.05, -0.03, 0.002, 0.02, 0.0],
                       "relative_se": [0.005, 0.005, 0.002, 0.02, 0.0],
                       "reference": [False, False, False, False, True]})
    out = classify(df, min_effect=0.01).set_index("card")
    assert out.verdict.to_dict() == {"x": "over-powered", "y": "under-powered",
                                     "z": "balanced", "w": "no evidence",
                                     "m": "alone in its deck"}
    # z: 0.002 +- 1.96 * 0.002 = (-0.0019, 0.0059), inside +-0.01
    assert out.loc["z", "relative_lo"] == pytest.approx(0.002 - 1.959964 * 0.002, abs=1e-6)
    assert np.isnan(out.loc["m", "p"])


def test_a_small_effect_is_not_a_verdict():
    # Decisively nonzero (z = 10) but inside the margin: no over-powered verdict.
    df = pd.DataFrame({"relative": [0.005], "relative_se": [0.0005], "reference": [False]})
    assert classify(df, min_effect=0.01).verdict.tolist() == ["balanced"]
    assert classify(df, min_effect=0.001).verdict.tolist() == ["over-powered"]


def test_consensus_needs_the_anchor_and_two_others():
    def frame(verdicts):
        return pd.DataFrame({"deck": "A", "card": ["x", "y"], "label": ["X", "Y"],
                             "verdict": verdicts, "relative": [0.1, 0.1]})

    by = {"t": frame(["over-powered", "over-powered"]),
          "g": frame(["over-powered", "over-powered"]),
          "h": frame(["over-powered", "no evidence"]),
          "k": frame(["balanced", "no evidence"])}
    out = consensus(by, "t").set_index("card")
    assert out.loc["x", "verdict"] == "over-powered"
    assert out.loc["y", "verdict"] == "not robust"  # only one other policy agrees
    assert out.loc["x", "anchor"] == "t"


# --- a stand-in game: deck A wins a match when its uniform U < p, the same U for every arm
# of a match (common random numbers); taking a card out lowers its own deck's chance by the
# card's true worth.

BASE = 0.5
WORTH = {0: {"x": 0.10, "a": 0.02, "b": 0.02, "c": 0.02, "e": 0.012, "d": 0.0},
         1: {"y": 0.02, "f": 0.02, "g": 0.02, "h": -0.05}}
COPIES: dict[str, int] = {}
U = np.random.default_rng(7).random(200_000)


@dataclass(frozen=True)
class Deck:
    name: str


@dataclass(frozen=True)
class Matchup:
    p: float
    decks: tuple = (Deck("A"), Deck("B"))
    policy_names: tuple = ("p", "p")
    legal: bool = True


class Records:
    def __init__(self, p, first, n):
        self.a = U[first:first + n] < p

    def wins(self, seat):
        return (self.a if seat == 0 else ~self.a).astype(np.int64)


class Fake:
    name = "fake"
    schema = Schema({"winner": ""}, "first", "first", flag_kinds=("shot",))

    def __init__(self):
        self.calls = []

    def run_batch(self, m, n, seed, first_match=0, n_log=0):
        assert m.legal, "an illegal variant was simulated"
        self.calls.append((m.p, first_match, n))
        return Records(m.p, first_match, n)

    def describe(self, m):
        ids = [c for seat in WORTH.values() for c in seat] + ["coach", "bad"]
        kinds = ["shot"] * (len(ids) - 2) + ["coach", "shot"]
        return {"card_pool": {"ids": ids, "names": [i.upper() for i in ids], "kinds": kinds}}

    def ablations(self, m):
        out = []
        for seat, cards in WORTH.items():
            for c, w in cards.items():
                p = BASE - w if seat == 0 else BASE + w
                out.append(Variant(c, seat, Matchup(p), c, c.upper(), copies=COPIES.get(c, 1)))
        out.append(Variant("coach", 0, Matchup(0.0), "coach", "COACH"))
        out.append(Variant("bad", 0, Matchup(0.3, legal=False), "bad", "BAD"))
        return out

    def validate(self, m):
        return [] if m.legal else [Problem("deck", 3, "BAD: five copies, at most four")]


def test_verdicts_recover_known_worths():
    game = Fake()
    df = card_verdicts(game, Matchup(BASE), 1, Precision(start=500, max_matches=64_000))
    v = df.set_index("card")
    assert "coach" not in v.index  # not a kind the game flags
    assert "bad" not in v.index and df.attrs["skipped"].card.tolist() == ["bad"]
    # Every card is judged against the median of its deck's other cards: worth 0.02 for
    # each of these (a, b or c); x adds 0.08 more, d 0.02 less.
    assert v.loc["x", "verdict"] == "over-powered"
    assert v.loc["x", "relative"] == pytest.approx(0.08, abs=0.02)
    assert v.loc["d", "verdict"] == "under-powered"
    assert v.loc["e", "verdict"] == "balanced"  # 0.008 from the median card, inside 0.01
    assert (v.loc[["a", "b", "c"], "verdict"] == "balanced").all()
    assert not v.reference.any()  # no card is its own yardstick
    assert set(v.loc["x", "median_card"].split(" / ")) <= {"A", "B", "C"}
    assert v.loc["h", "verdict"] == "under-powered" and v.loc["h", "relative"] < -0.05
    assert (v.loc[["a", "b", "c"], "worth"] - 0.02).abs().max() < 0.01
    # Matches went where they were needed: x and h were settled in the first round, d (0.02
    # from the median card, twice the margin) took more.
    assert v.loc["x", "n"] == v.loc["h", "n"] == 500 and v.loc["d", "n"] > 2 * 500
    assert df.attrs["matches"] == sum(n for _, _, n in game.calls)


def test_verdicts_are_the_same_whatever_the_round_sizes_when_every_card_runs_to_the_end():
    a = card_verdicts(Fake(), Matchup(BASE), 1, Precision(start=4000, max_matches=4000))
    b = card_verdicts(Fake(), Matchup(BASE), 1, Precision(start=1000, max_matches=4000))
    full = b[b.n == 4000].set_index("card").relative
    assert (a.set_index("card").relative.loc[full.index] == full).all()


@pytest.mark.parametrize("bad", [Precision(min_effect=0), Precision(min_effect=1.5),
                                 Precision(start=1), Precision(start=5000, max_matches=100)])
def test_bad_precision_is_refused(bad):
    from sim.problems import InputError

    with pytest.raises(InputError):
        card_verdicts(Fake(), Matchup(BASE), 1, bad)


class Grouped(Fake):
    """The same game, judging like against like: x, a and b in one group, c, e and d in
    another (deck A); deck B in one group."""

    def describe(self, m):
        d = super().describe(m)
        group = {"x": "g1", "a": "g1", "b": "g1", "c": "g2", "e": "g2", "d": "g2"}
        d["card_pool"]["verdict_groups"] = [group.get(c, "") for c in d["card_pool"]["ids"]]
        return d


def test_verdicts_judge_a_card_against_the_median_of_its_group():
    v = card_verdicts(Grouped(), Matchup(BASE), 1, Precision(start=500, max_matches=64_000))
    s = v.set_index("card")
    assert s.loc["x", "verdict"] == "over-powered"
    assert set(s.loc["x", "median_card"].split(" / ")) <= {"A", "B"}  # g1's others
    # d is judged against the other two of g2, c (0.02) and e (0.012): their mean, 0.016;
    # not against deck A's median card (0.02)
    assert set(s.loc["d", "median_card"].split(" / ")) == {"C", "E"}
    assert s.loc["d", "relative"] == pytest.approx(-0.016, abs=0.004)


def test_verdicts_judge_worth_per_copy(monkeypatch):
    # x's four copies add 0.10 in all: 0.025 a copy, within the margin of the median card's
    # 0.02 a copy; with one copy it is 0.08 above it.
    monkeypatch.setitem(COPIES, "x", 4)
    v = card_verdicts(Fake(), Matchup(BASE), 1, Precision(start=500, max_matches=64_000))
    x = v.set_index("card").loc["x"]
    assert x.worth == pytest.approx(0.10, abs=0.02)
    assert x.worth_per_copy == pytest.approx(x.worth / 4)
    assert x.relative == pytest.approx(0.005, abs=0.004) and x.verdict != "over-powered"
