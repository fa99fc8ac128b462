"""Causal card verdicts: the decision rule on hand-made numbers, and the adaptive rounds on a
stand-in game whose true card worths are known, so every verdict can be checked."""

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import pytest

from analysis.verdicts import beyond_margin_p, classify, consensus
from sim.core.problems import Problem
from sim.experiments.par import against
from sim.experiments.verdicts import Precision, card_verdicts
from sim.kit.game import Schema, Tuning
from sim.kit.power import Power
from sim.kit.variants import Building


def test_beyond_margin_p_by_hand():
    # est 0.03, se 0.01, margin 0.01: z = 2, one-sided p = 0.02275
    assert beyond_margin_p([0.03], [0.01], 0.01)[0] == pytest.approx(0.0227501, abs=1e-6)
    assert beyond_margin_p([-0.03], [0.01], 0.01)[0] == pytest.approx(0.0227501, abs=1e-6)
    assert beyond_margin_p([0.01], [0.01], 0.01)[0] == pytest.approx(0.5)
    assert beyond_margin_p([0.0], [0.0], 0.01)[0] == 1.0


def test_classify_by_hand():
    # gap 0.02 a copy everywhere: a card's own margin is 0.01, and the game's too.
    df = pd.DataFrame({"card": list("xyzwdu"),
                       "relative": [0.05, -0.03, 0.002, 0.02, 0.0, 0.0],
                       "relative_se": [0.005, 0.005, 0.002, 0.02, 0.001, 0.001],
                       "gap": [0.02] * 6, "gap_se": [0.002] * 6,
                       "played": [5, 5, 5, 5, 0, 5],
                       "untested": [False] * 5 + [True]})
    out = classify(df, share=0.5).set_index("card")
    assert out.verdict.to_dict() == {"x": "over-powered", "y": "under-powered",
                                     "z": "balanced", "w": "no evidence", "d": "dead",
                                     "u": "untested here"}
    # z: 0.002 +- 1.96 * 0.002 = (-0.0019, 0.0059), inside +-0.01
    assert out.loc["z", "relative_lo"] == pytest.approx(0.002 - 1.959964 * 0.002, abs=1e-6)
    assert out.loc["z", "margin"] == pytest.approx(0.01)
    # detectable at 80% power: (1.96 + 0.84) * se
    assert out.loc["z", "detectable"] == pytest.approx(2.8016 * 0.002, abs=1e-5)
    assert np.isnan(out.loc["d", "p"]) and np.isnan(out.loc["u", "p"])


def test_a_card_never_drawn_is_untested_not_dead():
    """Dead is a card the policies had and never played; a card the matchup never dealt (a
    deck card outside rally mode's arsenals, say) was never put to them: untested here."""
    df = pd.DataFrame({"card": ["held", "never dealt", "in play from the start"],
                       "relative": [0.0, 0.0, 0.0], "relative_se": [0.001] * 3,
                       "gap": [0.02] * 3, "gap_se": [0.002] * 3, "played": [0, 0, 7],
                       "drawn": [40, 0, 0], "untested": [True, True, False]})
    out = classify(df, share=0.5).set_index("card")
    # the third is played without ever being drawn: judged as any played card (balanced:
    # 0 +- 0.002 inside the margin of 0.01, its gap told from zero)
    assert out.verdict.to_dict() == {"held": "dead", "never dealt": "untested here",
                                     "in play from the start": "balanced"}
    # without the draws (a table from before they were counted) a card never played is dead
    assert classify(df.drop(columns="drawn"), share=0.5).verdict.tolist()[:2] == ["dead"] * 2


def test_the_margin_above_par_is_the_smaller_of_the_two_scales():
    # x: par made strong gains 0.02 a copy, no effect loses 0.002 (a game whose last points
    # are worth most): above par the margin is half of 0.002, and 0.003 +- 0.001 clears it.
    # y: the other way round (its first points worth most): half of 0.002 again.
    df = pd.DataFrame({"card": ["x", "y"], "relative": [0.003, 0.003],
                       "relative_se": [0.0005] * 2, "gap": [0.002, 0.02],
                       "gap_se": [0.0002] * 2, "up": [0.02, 0.002], "up_se": [0.0002] * 2,
                       "played": [5] * 2, "untested": [False] * 2})
    out = classify(df, share=0.5).set_index("card")
    assert out.margin_up.tolist() == [pytest.approx(0.001)] * 2
    assert out.margin_down.tolist() == [pytest.approx(0.001), pytest.approx(0.01)]
    assert out.verdict.tolist() == ["over-powered", "over-powered"]


def test_a_gap_the_run_cannot_tell_takes_its_peers_not_the_whole_games():
    # x and y (peers "a") have gaps of 0.02 a copy, z (peers "b") 0.004; w, a peer of z, has
    # a gap the run cannot tell from zero, so it takes its peers' (margin 0.002), not the
    # game's median (0.02, margin 0.01): its worth 0.003 +- 0.0004 is beyond it.
    df = pd.DataFrame({"card": list("xyzw"), "kind": "shot", "peer": list("aabb"),
                       "relative": [0.0, 0.0, 0.0, 0.003], "relative_se": [0.0002] * 4,
                       "gap": [0.02, 0.02, 0.004, 0.004], "gap_se": [0.001] * 3 + [0.01],
                       "played": [5] * 4, "untested": [False] * 4})
    out = classify(df, share=0.5).set_index("card")
    assert out.attrs["pooled_gap"] == {"": 0.02, "a": 0.02, "b": 0.004}
    assert out.loc["w", "margin"] == pytest.approx(0.002)
    assert out.loc["w", "verdict"] == "over-powered"
    # Without peers the kind pools all four: w's margin is half the game's 0.02.
    out = classify(df.drop(columns="peer"), share=0.5).set_index("card")
    assert out.loc["w", "margin"] == pytest.approx(0.01)
    assert out.loc["w", "verdict"] == "no evidence"


def test_a_card_stronger_than_par_worth_less_is_misplayed_not_under_powered():
    # x is at least as strong as par in every number (against_par +1) yet 0.03 below par,
    # beyond the margin: no verdict may call a stronger card under-powered. w is dominated
    # by par yet above it. y and v move the way their numbers do, z has mixed numbers.
    df = pd.DataFrame({"card": list("xwyvz"), "relative": [-0.03, 0.03, 0.03, -0.03, -0.03],
                       "relative_se": [0.005] * 5, "gap": [0.02] * 5, "gap_se": [0.002] * 5,
                       "played": [5] * 5, "untested": [False] * 5,
                       "against_par": [1, -1, 1, -1, 0]})
    out = classify(df, share=0.5).set_index("card")
    assert out.verdict.to_dict() == {"x": "misplayed", "w": "misplayed", "y": "over-powered",
                                     "v": "under-powered", "z": "under-powered"}


def test_against_par_reads_which_way_each_number_is_stronger():
    power = Power(cards=None, stronger={"atk": 1, "wait": -1}, bounds={}, with_values=None)
    cards = pd.DataFrame({"id": ["c"], "kind": ["k"], "atk": [3], "wait": [2]})
    assert against(power, cards, "c", {("c", "atk"): 2, ("c", "wait"): 2}) == 1
    assert against(power, cards, "c", {("c", "atk"): 3, ("c", "wait"): 1}) == -1
    assert against(power, cards, "c", {("c", "atk"): 2, ("c", "wait"): 1}) == 0
    assert against(power, cards, "c", {("c", "atk"): 3, ("c", "wait"): 2}) == 0


def test_a_row_touches_a_boundary_of_its_label():
    from types import SimpleNamespace

    from sim.experiments.calibrate import touches

    # margins 0.01 above and below par, balanced down to -0.003; each distance's standard
    # error 0.001, so its interval reaches 1.96 * 0.001 either way.
    def row(relative, gap_lo=0.004, gap=0.006, p=0.5, p_adjusted=0.5, unmoved=False):
        return SimpleNamespace(relative=relative, margin_up=0.01, margin_down=0.01,
                               own_margin=0.003, over_se=0.001, under_se=0.001,
                               floor_se=0.001, gap=gap, gap_lo=gap_lo, p=p,
                               p_adjusted=p_adjusted, unmoved=unmoved)

    assert not touches(row(0.0))  # inside both bounds, gap told: balanced for sure
    # ... but its numbers changed no record under the policies chosen for it: whether it is
    # untested here turns on a policy out of the race
    assert touches(row(0.0, unmoved=True))
    assert not touches(row(0.0, unmoved=float("nan")))  # a card without par
    assert touches(row(0.009))  # reaches the margin above
    assert touches(row(-0.0105))  # reaches the margin below
    assert touches(row(-0.004))  # reaches the bound of balanced below
    assert not touches(row(0.015))  # beyond the margin: over-powered for sure
    assert touches(row(0.0, gap_lo=-0.001, gap=0.002))  # gap barely told
    # beyond its margin alone (p 0.01), held back by the false-discovery control (0.08)
    assert touches(row(0.015, p=0.01, p_adjusted=0.08))
    assert not touches(row(0.015, p=0.001, p_adjusted=0.004))


def test_a_card_with_no_effect_is_never_balanced():
    # The card is the no-effect card: its worth against par is minus the gap. Its own gap
    # (0.004) is told from zero, so its margin is half of it (0.002), whatever the game's:
    # -0.004 lies beyond it, and is never inside it (balanced).
    df = pd.DataFrame({"relative": [-0.004], "relative_se": [0.0005], "gap": [0.004],
                       "gap_se": [0.0005], "played": [9], "untested": [False]})
    for pooled in (0.05, 0.004, 0.0):
        out = classify(df, share=0.5, pooled=pooled)
        assert out.verdict.tolist() == ["under-powered"]
        assert out.margin.tolist() == [pytest.approx(0.002)]
    # A gap the run cannot tell from zero takes the game's margin: 0.0075 here, which
    # -0.004 does not clear, and it is not balanced either; the gap's interval (0.004 +-
    # 1.96 * 0.003, up to 0.0099) reaches past that margin, so the card's numbers may matter.
    df["gap_se"] = 0.003
    assert classify(df, share=0.5, pooled=0.015).verdict.tolist() == ["no evidence"]
    # Against a margin of 0.025 no value of its numbers could clear it: untested here.
    assert classify(df, share=0.5, pooled=0.05).verdict.tolist() == ["untested here"]


def test_a_margin_measured_on_the_cards_own_matches_is_judged_with_it():
    # d is the card with no effect: match by match its worth is minus its own gap (0.004,
    # se 0.0013, so the covariance of the two is -0.0013 squared). Its margin is half that
    # gap, and the distance between them, -0.002, has half the gap's error, 0.00065: three
    # standard errors below the margin, under-powered. Read as a fixed margin, -0.004 +-
    # 1.96 * 0.0013 reaches past -0.002 and nothing could be said.
    # s is par made strong: worth equal to its own up-gap (0.004) match by match, against a
    # larger gap to no effect (0.02): half of 0.004 above par, three errors past it.
    v = 0.0013 ** 2
    df = pd.DataFrame({"card": ["d", "s"], "relative": [-0.004, 0.004],
                       "relative_se": [0.0013] * 2, "gap": [0.004, 0.02],
                       "gap_se": [0.0013, 0.0005], "up": [0.02, 0.004], "up_se": [0.0005, 0.0013],
                       "rel_gap_cov": [-v, 0.0], "rel_up_cov": [0.0, v],
                       "played": [9, 9], "untested": [False] * 2})
    out = classify(df, share=0.5).set_index("card")
    assert out.margin.tolist() == [pytest.approx(0.002), pytest.approx(0.002)]
    assert out.margin_se.tolist() == [pytest.approx(0.00065), pytest.approx(0.00065)]
    assert out.verdict.tolist() == ["under-powered", "over-powered"]
    fixed = classify(df.drop(columns=["rel_gap_cov", "rel_up_cov"]), share=0.5)
    assert fixed.verdict.tolist() == ["no evidence", "no evidence"]


def test_no_balanced_verdict_when_the_run_cannot_tell_dead_from_par():
    # gap 0.002 +- 1.96 * 0.002 reaches 0 (not told) and 0.0059, past the peers' margin of
    # 0.005: the card's numbers may matter, and nothing is said.
    df = pd.DataFrame({"relative": [0.0], "relative_se": [0.0005], "gap": [0.002],
                       "gap_se": [0.002], "played": [9], "untested": [False]})
    assert classify(df, share=0.5, pooled=0.01).verdict.tolist() == ["no evidence"]
    df["gap_se"] = 0.0002
    assert classify(df, share=0.5, pooled=0.01).verdict.tolist() == ["balanced"]


def test_numbers_no_value_could_carry_past_the_margin_are_untested_here():
    # Hired Blade's strength: the card with no effect and par made strong each move the
    # deck by at most 0.0004 + 1.96 * 0.0003 = 0.00099 a copy, inside the peers' margins
    # (half of 0.004 below par, half of 0.006 above): untested here, not balanced or no
    # evidence. With a larger gap above (0.0025 +- 0.0006, reaching 0.0031, past the margin
    # of 0.003) par made strong may matter, and nothing is said.
    # t's card with no effect loses 0.0012 +- 0.0006: inside the peers' margin, but told
    # from zero, so its numbers do matter here: balanced (inside half its own gap, 0.0006).
    df = pd.DataFrame({"card": ["h", "k", "t"], "relative": [0.0001] * 3,
                       "relative_se": [0.0002] * 3, "gap": [0.0004, 0.0004, 0.0012],
                       "gap_se": [0.0003] * 3, "up": [-0.0004, 0.0025, -0.0004],
                       "up_se": [0.0003] * 3, "played": [9] * 3, "untested": [False] * 3})
    out = classify(df, share=0.5, pooled=0.004, pooled_up={"": 0.006}).set_index("card")
    assert out.verdict.to_dict() == {"h": "untested here", "k": "no evidence",
                                     "t": "balanced"}
    assert out.negligible.tolist() == [True, False, False]


def test_the_rounds_settle_a_card_only_on_the_verdict_it_gets():
    from sim.experiments.verdicts import settled

    # Encounter's Troll after 2,000 matches: par made strong gains 0.00425 +- 1.96 * 0.0021,
    # told from zero at 95% (the verdict's level), so its own half (0.0021) is the margin
    # above par, and 0 +- 1.96 * 0.0013 reaches past it: no evidence. Read at the stricter
    # per-look level, the same gain is not told and the peers' margin (0.0025) would have
    # settled the card as balanced: the rounds must go on instead.
    df = pd.DataFrame({"relative": [0.0], "relative_se": [0.00079], "gap": [0.0115],
                       "gap_se": [0.0025], "up": [0.00425], "up_se": [0.00207],
                       "played": [9], "untested": [False]})
    pooled, pooled_up = {"": 0.0115}, {"": 0.005}
    assert classify(df, 0.5, 0.05, pooled, pooled_up).verdict.tolist() == ["no evidence"]
    assert not settled(df, Precision(), pooled, pooled_up).iloc[0]


def test_a_policy_far_behind_its_sides_leader_leaves_the_race():
    from types import SimpleNamespace

    from sim.experiments.arms import Arms
    from sim.experiments.verdicts import best

    # Two policies on one side: "good" wins 3 matches in 4, "poor" 1 in 4, match by match
    # from the same seeds. After 400 matches poor is 0.5 behind, far past 3 standard errors:
    # it leaves the race and plays no more matches; good plays on to 800. A third policy,
    # "near", wins what good wins but one match in 100: never 3 errors behind, it stays.
    class Game:
        def run_batch(self, m, n, seed, first_match=0):
            i = np.arange(first_match, first_match + n)
            won = {"good": i % 4 != 0, "poor": i % 4 == 0,
                   "near": (i % 4 != 0) & (i % 100 != 1)}[m]
            return SimpleNamespace(wins=lambda seat: won.astype(np.int8),
                                   matches=won[:, None].astype(np.int64), card_stats=0)

    arms = Arms(Game(), 1)
    for p in ("good", "poor", "near"):
        arms.add(p, p, 0)
    keys = ["good", "poor", "near"]
    assert best(arms, keys, 400) == "good"
    assert best(arms, keys, 800) == "good"
    assert arms.n("good") == 800 and arms.n("near") == 800 and arms.n("poor") == 400
    assert arms.dropped[tuple(keys)] == {"poor"}


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


# --- a stand-in game whose card worths are known. Deck A wins a match when its uniform U is
# below p, the same U for every arm (common random numbers). A played card adds K per point of
# value per copy to its deck's chance; the `greedy` policy misuses a card of value above 4
# (each copy then costs K per point), `good` (the trained one) plays every card well and
# `idle` plays no card. Par is 2 points per point of cost, read off the pool.

K = 0.002
U = np.random.default_rng(7).random(300_000)
# id: (kind, cost, value); the decks: A holds a1 a2 strong dead, B holds b1 b2.
POOL = {"a1": ("shot", 1, 2), "a2": ("shot", 2, 4), "strong": ("shot", 1, 6),
        "dead": ("shot", 2, 0), "b1": ("shot", 1, 2), "b2": ("shot", 2, 4),
        "p1": ("shot", 1, 2), "p2": ("shot", 2, 4), "p3": ("shot", 3, 6), "p4": ("shot", 3, 6),
        "coach": ("coach", 0, 0)}
DECKS = ({"a1": 3, "a2": 3, "strong": 2, "dead": 2, "coach": 1}, {"b1": 4, "b2": 4})
STATS = ("matches_in_deck", "matches_drawn", "wins_drawn", "wins_not_drawn", "played")


@dataclass(frozen=True)
class Deck:
    name: str


@dataclass(frozen=True)
class Matchup:
    values: tuple = tuple(sorted((c, v) for c, (_, _, v) in POOL.items()))
    policy_names: tuple = ("greedy", "greedy")
    decks: tuple = (Deck("A"), Deck("B"))
    legal: bool = True
    views: tuple = ((), ())  # what each seat's policy reads of a card's value, where it differs

    def value(self, card):
        return dict(self.values)[card]


def card_worth(m, seat, card):
    # greedy misuses a card it reads as above 4; the card then works at its true value.
    policy, v = m.policy_names[seat], m.value(card)
    if policy == "idle" or POOL[card][0] != "shot":
        return 0.0
    seen = dict(m.views[seat]).get(card, v)
    return -K * v if policy == "greedy" and seen > 4 else K * v


def chance(m):
    a = sum(n * card_worth(m, 0, c) for c, n in DECKS[0].items())
    b = sum(n * card_worth(m, 1, c) for c, n in DECKS[1].items())
    return 0.5 + a - b


class Records:
    def __init__(self, m, first, n):
        winner = np.where(U[first:first + n] < chance(m), 0, 1).astype(np.int32)
        self.matches = winner[:, None]
        self.card_stats = np.zeros((2, len(POOL), len(STATS)), np.int64)
        for seat, deck in enumerate(DECKS):
            for c, copies in deck.items():
                self.card_stats[seat, list(POOL).index(c), 1] = n  # drawn every match
                if m.policy_names[seat] != "idle":  # and played, unless the seat idles
                    self.card_stats[seat, list(POOL).index(c), 4] = n * copies

    def wins(self, seat):
        return (self.matches[:, 0] == seat).astype(np.int8)


def with_values(m, values):
    now = dict(m.values) | {c: v for (c, _f), v in values.items()}
    return replace(m, values=tuple(sorted(now.items())))


def cards(m):
    return pd.DataFrame({"id": list(POOL), "kind": [k for k, _, _ in POOL.values()],
                         "cost": [c for _, c, _ in POOL.values()],
                         "value": [m.value(c) for c in POOL]})


def with_view(m, seat, values):
    views = list(m.views)
    views[seat] = tuple(sorted((dict(views[seat]) | {c: v for (c, _f), v in values.items()})
                               .items()))
    return replace(m, views=tuple(views))


def with_policy(m, seat, folder, policy, values, name):
    names = list(m.policy_names)
    names[seat] = policy
    return replace(m, policy_names=tuple(names))


class Fake:
    name = "fake"
    schema = Schema({"winner": ""}, "first", "first", flag_kinds=("shot",),
                    card_stats={"played": "copies played"}, played="played")
    power = Power(cards=cards, stronger={"value": 1}, bounds={"value": (0, 20)},
                  with_values=with_values, cost={"": "cost"})
    building = Building(counts=lambda m, seat: dict(DECKS[seat]), with_counts=None,
                        groups=None)
    tuning = Tuning(params=None, with_policy=with_policy, card_value=None)

    def __init__(self):
        self.calls = []

    def schema_of(self, m):
        return self.schema

    def run_batch(self, m, n, seed, first_match=0, n_log=0):
        assert m.legal, "an illegal variant was simulated"
        self.calls.append((m, first_match, n))
        return Records(m, first_match, n)

    def describe(self, m):
        return {"card_pool": {"ids": list(POOL), "names": [c.upper() for c in POOL],
                              "kinds": [k for k, _, _ in POOL.values()]}}

    def validate(self, m):
        return [] if m.legal else [Problem("deck", 3, "BAD")]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "policies.toml").write_text("[greedy]\n[good]\n[idle]\n", encoding="utf-8")
    return tmp_path


def test_par_dead_and_strong_cards_under_the_decks_best_play(folder):
    game = Fake()
    df = card_verdicts(game, Matchup(), 1, Precision(start=4000, max_matches=64_000), None,
                       folder, trained="good")
    v = df.set_index("card")
    assert "coach" not in v.index  # not a kind the game flags
    # Par is 2 points per point of cost: a1 and a2 are par, strong is 4 points over, dead
    # is the card with no effect of cost 2 (4 points under).
    assert v.loc["a1", "par"] == "value 2" and v.loc["dead", "par"] == "value 4"
    assert v.loc["strong", "verdict"] == "over-powered"
    # Under `good`, strong adds 4 * K = 0.008 a copy over par; its gap to no effect is 2 * K.
    assert v.loc["strong", "relative"] == pytest.approx(4 * K, abs=0.002)
    assert v.loc["strong", "policy"] == "good"
    assert v.loc["dead", "verdict"] == "under-powered"
    assert v.loc["dead", "relative"] == pytest.approx(-4 * K, abs=0.002)
    assert (v.loc[["a1", "a2", "b1", "b2"], "verdict"] == "balanced").all()
    assert v.loc["a2", "gap"] == pytest.approx(4 * K, abs=0.002)
    assert df.attrs["policies"] == {"A": ["good", "greedy"], "B": ["good", "greedy"]}
    assert df.attrs["matches"] == sum(n for _, _, n in game.calls)


def test_a_strong_card_played_as_par_is_played_is_over_powered_under_greedy_alone():
    # Where the game lets a policy read a card as par while the rules play it as it is,
    # greedy plays strong (value 6) as it plays a card of value 2, which it uses well, and
    # strong's worth comes back: 4 points a copy over par, over-powered, played as par.
    class Viewing(Fake):
        power = replace(Fake.power, with_view=with_view)

    df = card_verdicts(Viewing(), Matchup(), 1, Precision(start=4000, max_matches=64_000))
    v = df.set_index("card")
    assert v.loc["strong", "verdict"] == "over-powered" and v.loc["strong", "as_par"]
    assert v.loc["strong", "relative"] == pytest.approx(4 * K, abs=0.002)
    assert v.loc["dead", "verdict"] == "under-powered"  # read as par or not, it does nothing
    assert not v.loc["a1", "as_par"]  # at par already: nothing to read differently


def test_a_folders_declared_par_is_the_yardstick(folder):
    # The folder declares par for shots: 6 at cost 1, 4 at cost 2 (the pool's curve would
    # give 2 and 4). strong (cost 1, value 6) is now par itself, and a1 and b1 (cost 1,
    # value 2) are 4 points a copy under it.
    (folder / "par.csv").write_text("kind,cost,value\nshot,1,6\nshot,2,4\n",
                                    encoding="utf-8")
    df = card_verdicts(Fake(), Matchup(), 1, Precision(start=4000, max_matches=32_000), None,
                       folder, trained="good")
    v = df.set_index("card")
    assert v.loc["strong", "par"] == "value 6" and v.loc["a2", "par"] == "value 4"
    assert v.loc["strong", "at_par"] and v.loc["strong", "relative"] == 0
    assert v.loc["a1", "verdict"] == "under-powered"
    assert v.loc["a1", "relative"] == pytest.approx(-4 * K, abs=0.002)
    assert v.loc["a2", "verdict"] == "balanced"


def test_greedy_alone_misplays_the_strong_card_and_the_verdict_says_so(folder):
    # The same run without the folder's policies: greedy misuses strong, which loses to par
    # (what best play is there to prevent). A card with more of every number than par is
    # never called under-powered for it: misplayed.
    df = card_verdicts(Fake(), Matchup(), 1, Precision(start=4000, max_matches=64_000))
    v = df.set_index("card")
    assert v.loc["strong", "relative"] == pytest.approx(-8 * K, abs=0.002)
    assert v.loc["strong", "verdict"] == "misplayed"


def test_changing_one_card_leaves_the_others_verdicts(folder):
    p = Precision(start=4000, max_matches=32_000)
    before = card_verdicts(Fake(), Matchup(), 1, p, None, folder, trained="good").set_index(
        "card")
    nerfed = with_values(Matchup(), {("a1", "value"): 0})
    after = card_verdicts(Fake(), nerfed, 1, p, None, folder, trained="good").set_index(
        "card")
    assert after.loc["a1", "verdict"] == "under-powered"
    others = ["a2", "strong", "dead", "b1", "b2"]
    assert (after.loc[others, "verdict"] == before.loc[others, "verdict"]).all()
    assert after.loc[others, "par"].tolist() == before.loc[others, "par"].tolist()


def test_a_card_no_policy_plays_is_dead_and_an_unmoved_record_untested(folder):
    class Idle(Fake):
        def run_batch(self, m, n, seed, first_match=0, n_log=0):
            m = replace(m, policy_names=("idle", m.policy_names[1]))
            return super().run_batch(m, n, seed, first_match, n_log)

    v = card_verdicts(Idle(), Matchup(), 1, Precision(start=2000, max_matches=2000), None,
                      folder, trained="good").set_index("card")
    # Seat A never plays: every card of A is dead, not balanced.
    assert (v.loc[["a1", "a2", "strong", "dead"], "verdict"] == "dead").all()
    assert (v.loc[["a1", "a2", "strong", "dead"], "played"] == 0).all()


def test_the_deck_keeps_its_length_and_every_arm_is_legal(folder):
    game = Fake()
    card_verdicts(game, Matchup(), 1, Precision(start=500, max_matches=500), None, folder,
                  trained="good")
    # Every matchup played is the same decks with other values or policies: no card taken
    # out, none added.
    assert all(len(m.values) == len(POOL) for m, _, _ in game.calls)


def test_calibrate_recovers_planted_buffs_and_nerfs(folder):
    from sim.experiments.calibrate import calibrate

    plants, summary = calibrate(Fake(), Matchup(), folder, 3, count=3,
                                precision=Precision(start=4000, max_matches=32_000),
                                classes=("buff", "nerf"), trained="good")
    s = summary.set_index("class")
    # Three of each class drawn from the five cards whose change moves a number; each buff
    # makes a card at least as strong as the kind's best (6, par 2 or 4 at costs 1 and 2),
    # each nerf the card with no effect.
    assert s.loc["buff", "planted"] == 3 and s.loc["nerf", "planted"] == 3
    assert s.loc["buff", "recovered"] == 3 and s.loc["nerf", "recovered"] == 3
    assert s.contradictions.sum() == 0
    assert set(plants.verdict) == {"over-powered", "under-powered"}
    # Every plant here moves its card by 2 to 7 points of K = 0.002 a copy: beyond what the
    # run can detect, so the powered rate is the whole rate.
    assert s.loc["buff", "powered"] == 3 and s.loc["nerf", "rate_powered"] == 1.0
    assert (plants["size"].abs() >= 2 * K * 0.5).all()


def test_plants_go_only_on_the_cards_the_matchup_judges():
    from sim.experiments.calibrate import plan

    # Told that only A's a1 and a2 are judged, every buff and nerf lands on them.
    judged = {(0, "a1"), (0, "a2")}
    plants = plan(Fake(), Matchup(), 5, 3, ("buff", "nerf"), judged=judged)
    assert {(p.seat, p.card) for p in plants} == judged
    assert sorted(p.what for p in plants) == ["buff", "buff", "nerf", "nerf"]
    assert len(plan(Fake(), Matchup(), 5, 3, ("buff", "nerf"))) == 10  # five of each, of six


def test_a_plant_goes_where_the_matchup_could_show_it():
    from sim.experiments.calibrate import plan, testable

    # x: par made strong gains 0.004 +- 1.96 * 0.001 (told), the card with no effect loses
    # 0.001 +- 0.002 (not told): a buff could show, a nerf could not. y the other way round;
    # u is untested here, no plant at all. Told so, a buff lands only on x, a nerf on y.
    base = pd.DataFrame({"seat": [0, 0, 0], "card": ["a1", "a2", "b1"],
                         "verdict": ["balanced", "no evidence", "untested here"],
                         "up": [0.004, 0.0, 0.004], "up_se": [0.001] * 3,
                         "gap": [0.001, 0.004, 0.004], "gap_se": [0.002, 0.001, 0.001]})
    sets = testable(base)
    assert sets == {"buff": {(0, "a1")}, "nerf": {(0, "a2")},
                    "clone": {(0, "a1"), (0, "a2")}}
    plants = plan(Fake(), Matchup(), 5, 3, ("buff", "nerf"), judged=sets)
    assert sorted((p.what, p.card) for p in plants) == [("buff", "a1"), ("nerf", "a2")]


def test_a_card_changes_for_its_own_seat_only():
    # Paint the Line's sample decks both hold Drive Shot. Changed for seat A, B's copies stay
    # the printed card (a card of their own under another id); unchanged, every record is
    # the same as the matchup's, bit for bit.
    from sim.experiments.arms import seat_local
    from sim.kit.folders import default_folder
    from sim.paintline.game import GAME

    folder = default_folder("paintline")
    m = GAME.load_matchup(folder, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
    assert "drive-shot" in GAME.building.counts(m, 0) and "drive-shot" in \
        GAME.building.counts(m, 1)
    local = seat_local(GAME, m, 0, "drive-shot")
    counts_b = GAME.building.counts(local, 1)
    assert "drive-shot" not in counts_b and counts_b["drive-shot@others"] == \
        GAME.building.counts(m, 1)["drive-shot"]
    assert GAME.building.counts(local, 0) == GAME.building.counts(m, 0)
    base, same = GAME.run_batch(m, 300, 4), GAME.run_batch(local, 300, 4)
    assert np.array_equal(base.matches, same.matches)
    changed = GAME.power.with_values(local, {("drive-shot", "normal_bonus"): 9})
    i, j = changed.pool.ids.index("drive-shot"), changed.pool.ids.index("drive-shot@others")
    col = changed.pool.table[i] != changed.pool.table[j]
    assert col.sum() == 1 and changed.pool.table[j].tolist() == m.pool.table[i].tolist()
    assert not np.array_equal(GAME.run_batch(changed, 300, 4).matches, base.matches)


def test_a_plant_moves_no_other_cards_verdict(folder):
    from sim.experiments.calibrate import others_moved

    moved = others_moved(Fake(), Matchup(), folder, 3, 4,
                         Precision(start=4000, max_matches=32_000), "good")
    # Two buffs and two nerfs in turn, each judged with the five other cards.
    assert moved["class"].tolist() == ["buff", "nerf", "buff", "nerf"]
    assert (moved.others == 5).all() and (moved.changed == 0).all()


def test_a_worth_that_moved_beyond_noise_is_told_from_one_that_did_not():
    from types import SimpleNamespace

    from sim.experiments.calibrate import worth_moved

    # errors 0.001 in each run: the difference's is 0.001 * sqrt(2), 1.96 of it 0.00277
    before = SimpleNamespace(relative=0.004, relative_se=0.001)
    assert worth_moved(before, SimpleNamespace(relative=0.0, relative_se=0.001))
    assert not worth_moved(before, SimpleNamespace(relative=0.002, relative_se=0.001))
    assert worth_moved(before, SimpleNamespace(relative=0.0069, relative_se=0.001))


def test_twins_in_one_deck_are_one_card_with_one_verdict(folder, monkeypatch):
    # p1 has a1's kind, cost and value: in deck A beside a1 the rules cannot tell them apart.
    # Both are judged as one card, on their four copies together: the same worth, interval
    # and verdict, each row naming its twin. Judged apart, each would have its own noise.
    import tests.test_verdicts as here

    monkeypatch.setattr(here, "DECKS", ({"a1": 3, "p1": 1, "a2": 3, "dead": 2}, DECKS[1]))
    (folder / "par.csv").write_text("kind,cost,value\nshot,1,2\nshot,2,4\n", encoding="utf-8")
    strong = with_values(Matchup(), {("a1", "value"): 5, ("p1", "value"): 5})
    v = card_verdicts(Fake(), strong, 1, Precision(start=4000, max_matches=16_000), None,
                      folder, trained="good").set_index("card")
    assert v.loc["a1", "twins"] == "P1" and v.loc["p1", "twins"] == "A1"
    assert v.loc["a2", "twins"] == ""
    for col in ("relative", "relative_se", "gap", "verdict", "p_adjusted"):
        assert v.loc["a1", col] == v.loc["p1", col]
    # 3 points of K over par (value 2 at cost 1) a copy, on all four copies
    assert v.loc["a1", "relative"] == pytest.approx(3 * K, abs=0.0015)
    assert v.loc["a1", "verdict"] == "over-powered"
    # In the other deck, the same numbers are a card of their own.
    assert v.loc["b1", "twins"] == ""


def test_calibrate_judges_a_clone_beside_its_original():
    # Paint the Line's sample matchup, four basic shots of seat A judged first (few matches:
    # labels here need not be decided, only the same for a clone and its original).
    from sim.experiments.calibrate import calibrate
    from sim.kit.folders import default_folder, read_folder
    from sim.paintline.game import GAME

    folder = default_folder("paintline")
    info = read_folder(folder)
    m = GAME.load_matchup(folder, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
    cards = GAME.power.cards(m).set_index("id")
    shots = [c for c in GAME.building.counts(m, 0) if cards.at[c, "kind"] == "basic_shot"][:4]
    p = Precision(start=300, max_matches=300, screen=300)
    base = card_verdicts(GAME, m, 2, p, folder=str(folder), only={(0, c) for c in shots},
                         trained=info.trained)
    plants, summary = calibrate(GAME, m, str(folder), 2, count=2, precision=p,
                                classes=("clone",), trained=info.trained, base=base)
    assert len(plants) == 2 and (plants["class"] == "clone").all()
    assert set(plants.card) <= set(shots) and set(plants.like) <= set(shots)
    # Each clone takes its deck-mate's row whole: one card to the rules, judged as one.
    names = dict(zip(m.pool.ids, m.pool.names, strict=True))
    assert [p.twins for p in plants.itertuples()] == [names[c] for c in plants.like]
    assert (plants.verdict == plants.like_now).all() and plants.recovered.all()
    s = summary.set_index("class")
    assert s.loc["clone", "recovered"] == 2
    assert s.loc["clone", "as_before"] == int((plants.verdict == plants.like_before).sum())


def test_a_buff_is_judged_against_what_par_made_strong_gains(folder, monkeypatch):
    # A game where being played is worth most: a shot's first point of value adds 4 K, each
    # further point K / 2. a1 (cost 1, par 2) buffed to 5 gains 1.5 K a copy, while the
    # card with no effect loses 4.5 K: against half of that (2.25 K) the buff would pass for
    # balanced. Par made strong (value 6, the kind's best) gains 2 K, so the margin above
    # par is K, and the buff is over-powered; below par the margin stays 2.25 K.
    import tests.test_verdicts as here

    def concave(m, seat, card):
        v = m.value(card)
        if m.policy_names[seat] == "idle" or POOL[card][0] != "shot":
            return 0.0
        return K * (4 * min(v, 1) + 0.5 * max(v - 1, 0))

    monkeypatch.setattr(here, "card_worth", concave)
    (folder / "par.csv").write_text("kind,cost,value\nshot,1,2\nshot,2,4\n", encoding="utf-8")
    buffed = with_values(Matchup(), {("a1", "value"): 5})
    v = card_verdicts(Fake(), buffed, 1, Precision(start=4000, max_matches=64_000), None,
                      folder, trained="good").set_index("card")
    a1 = v.loc["a1"]
    assert a1.relative == pytest.approx(1.5 * K, abs=0.0005)
    assert a1.up == pytest.approx(2 * K, abs=0.0005)
    assert a1.gap == pytest.approx(4.5 * K, abs=3 * a1.gap_se)
    assert a1.margin_up == pytest.approx(K, abs=0.0003)
    assert a1.margin_down == pytest.approx(a1.gap / 2)
    assert a1.verdict == "over-powered"
    assert v.loc["dead", "verdict"] == "under-powered"  # 4 + 1.5 K a copy under par 4


def test_a_card_at_par_whose_numbers_change_nothing_is_untested(folder, monkeypatch):
    # b1 sits at par (value 2 at cost 1) and, in this game, its value never matters: with
    # no effect or made strong it plays every match as it does. Its numbers changed no
    # record, so it is untested here, settled on the first matches, not "no evidence"
    # after the most the run may play.
    import tests.test_verdicts as here

    original = here.card_worth

    def deaf(m, seat, card):
        return 0.0 if card == "b1" else original(m, seat, card)

    monkeypatch.setattr(here, "card_worth", deaf)
    v = card_verdicts(Fake(), Matchup(), 1, Precision(start=2000, max_matches=64_000), None,
                      folder, trained="good").set_index("card")
    assert v.loc["b1", "at_par"] and v.loc["b1", "verdict"] == "untested here"
    assert v.loc["b1", "n"] == 2000
    assert v.loc["b2", "verdict"] == "balanced"  # at par too, and its value counts


def test_numbers_that_move_records_only_under_a_policy_out_of_the_race_are_unmoved(
        folder, monkeypatch):
    # b1, here one point above par, counts under greedy alone, which misuses it (each point
    # costs its deck K a copy), so `good` wins each of its deck's races, and greedy stays
    # the other policy kept (idle plays neither b1 nor b2). Its numbers moved records, so
    # it is not untested here, but not under the play it is judged by: unmoved, which
    # calibrate reads as a label on the boundary of untested here.
    import tests.test_verdicts as here

    original = here.card_worth

    def deaf_when_good(m, seat, card):
        if card == "b1":
            return -K * m.value(card) if m.policy_names[seat] == "greedy" else 0.0
        return original(m, seat, card)

    monkeypatch.setattr(here, "card_worth", deaf_when_good)
    m = with_values(Matchup(), {("b1", "value"): 3})
    v = card_verdicts(Fake(), m, 1, Precision(start=2000, max_matches=8000), None,
                      folder, trained="good").set_index("card")
    assert v.loc["b1", "par"] == "value 2" and v.loc["b1", "policy"] == "good"
    assert v.loc["b1", "unmoved"] and not v.loc["b1", "untested"]
    assert not v.loc["b2", "unmoved"] and not v.loc["a1", "unmoved"]


def test_calibrate_says_why_a_class_could_not_be_planted_and_prints_no_empty_rates(tmp_path):
    """High Card's default decks hold number cards adding up to its value_cap: a buff (more
    value) breaks the cap on every card, so none is planted. The output says so, with the
    rule, and shows no rate of nothing (nan); nerfs and clones still get theirs."""
    from .conftest import cardlab

    out = cardlab("calibrate", "--folder", "highcard", "--plants", "1", "--verdict-start",
                  "200", "--verdict-max", "400", "-q", "--results", str(tmp_path))
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "nan" not in said, out.stdout
    assert "buff: no card could take a buff within the rules" in said, out.stdout
    assert "value_cap" in said
    plants = pd.read_parquet(next(tmp_path.iterdir()) / "calibrate.parquet").set_index("class")
    assert plants.loc["buff", "planted"] == 0 and plants.loc["nerf", "planted"] == 1


def test_a_deck_against_itself_names_the_policies_chosen_for_each_seat(tmp_path):
    """In a mirror both seats hold one deck: the policies chosen for each seat are both told
    (keyed by deck name, seat B's replaced seat A's)."""
    import json

    from .conftest import cardlab

    run = cardlab("simulate", "steady", "steady", "--folder", "highcard", "-n", "300",
                  "--results", str(tmp_path), "--run-id", "m", "-q")
    assert run.returncode == 0, run.stderr
    out = cardlab("verdicts", "m", "--results", str(tmp_path), "--verdict-start", "100",
                  "--verdict-max", "200", "--field-matches", "0", "-q")
    assert out.returncode == 0, out.stderr
    chosen = json.loads((tmp_path / "m" / "verdicts.json").read_text())["policies"]
    assert set(chosen) == {"steady (seat A)", "steady (seat B)"}


def test_a_quick_look_screens_the_policies_on_no_more_matches_than_a_card_plays():
    # Paint the Line's sample folder has eight policies; each plays the judged seat's
    # unchanged deck once to choose the deck's best play: on 100 matches where a verdict
    # plays at most 100 (not the 4,000 a full verdict screens on), 8 x 100 in all.
    import tomllib

    from sim.kit.folders import default_folder, read_folder
    from sim.paintline.game import GAME

    folder = default_folder("paintline")
    info = read_folder(folder)
    assert len(tomllib.loads((folder / "policies.toml").read_text())) == 8
    m = GAME.load_matchup(folder, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
    cards = GAME.power.cards(m).set_index("id")
    shot = next(c for c in GAME.building.counts(m, 0) if cards.at[c, "kind"] == "basic_shot")
    v = card_verdicts(GAME, m, 2, Precision(start=100, max_matches=100), folder=str(folder),
                      only={(0, shot)}, trained=info.trained)
    assert v.attrs["screen_matches"] == 8 * 100
