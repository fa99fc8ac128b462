"""Paint the Line's rulebook sentences (docs/rules.md, "Rule index"), each pinned in both
engines: a hand-built turn played by the kernel and the reference from one state, or
matches both engines play alike, read against numbers worked out here from the sentence."""

from __future__ import annotations

import functools
import re

import pandas as pd
import pytest

from sim.paintline import keywords as K
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import shots as Sh
from sim.paintline import state as S
from sim.paintline.batch import run_batch
from sim.paintline.reference import ReferenceGame, Seat, reference_batch, replay
from sim.paintline.reference_shots import Shot
from sim.paintline.reference_turn import InPlay

from .paintline_both import Side, both_turn, matchup
from .test_rules import ability, expected_shots, shot_log

rule = pytest.mark.rule


# One turn, both engines -----------------------------------------------------------------


@rule("PTL-24")
def test_a_turn_readies_the_stamina_and_draws_a_card():
    """"At the beginning of your turn, ready all of your stamina cards and draw a card.\""""
    (a, _), text, m = both_turn([Side(stamina=3, ready=0), Side()])
    assert a.bag == 10 - 1 and text[1] == "A draws Tycho Brahe"
    assert a.ready == 3  # the Default Shot spends nothing


@rule("PTL-25")
def test_one_stamina_card_a_turn():
    (a, _), _, m = both_turn([Side(hand=("Stamina",) * 3, stamina=2), Side()])
    assert a.stamina == 3 and a.hand.count(m.pool.lookup("Stamina")) == 2


@rule("PTL-26", "PTL-11")
def test_one_untap_a_turn_and_a_tapped_card_cannot_be_hit():
    """Two double-tapped Drive Shots: one goes one step ("Untap one shot card once"), and
    neither can be hit ("While tapped, the card cannot be used"): the Default Shot."""
    (a, _), _, m = both_turn([Side(play=("Drive Shot", "Drive Shot"), taps=(2, 2),
                                   stamina=2), Side()])
    assert sorted(t for _, t, _ in a.play) == [1, 2] and a.shot["card"] == -1


@rule("PTL-11", "PTL-10")
def test_an_enhancement_may_be_attached_to_a_tapped_shot_card():
    """"While tapped, the card cannot be used": the engines read attaching an enhancement to
    a tapped card as no use of it (docs/rules.md, "Open points read without an option"). A
    double-tapped Drive Shot takes the untap step (single tapped, still not hit: the Default
    Shot), and Sandpaper Paddle (cost 2) is attached to it with the two Stamina."""
    (a, _), _, m = both_turn([Side(hand=("Sandpaper Paddle",), play=("Drive Shot",),
                                   taps=(2,), stamina=2), Side()])
    drive, paddle = m.pool.lookup("Drive Shot"), m.pool.lookup("Sandpaper Paddle")
    assert a.shot["card"] == -1 and a.play == [(drive, 1, paddle)] and a.ready == 0


@rule("PTL-5", "PTL-28")
def test_a_card_in_play_is_hit_for_its_cost_one_from_hand_is_paid_once():
    """Chop costs 1: hit from the Arsenal it taps one Stamina; played from hand and hit it
    taps one, once ("you may hit a shot card played from your hand this turn for free")."""
    chop = ("Chop",)
    (a, _), _, m = both_turn([Side(play=chop, stamina=3), Side()])
    assert a.shot["card"] == m.pool.lookup("Chop") and a.ready == 2
    (a, _), _, m = both_turn([Side(hand=chop, stamina=3), Side()])
    assert a.shot["card"] == m.pool.lookup("Chop") and a.ready == 2 and len(a.play) == 1


@rule("PTL-9")
def test_the_card_hit_is_double_tapped():
    (a, _), _, m = both_turn([Side(play=("Chop",), stamina=1), Side()])
    assert a.shot["card"] == m.pool.lookup("Chop") and a.play[0][1] == 2


@rule("PTL-27")
def test_cards_played_cost_no_more_stamina_than_is_in_play():
    """Three Chops (cost 1 each) in hand and two Stamina: two can be paid for."""
    (a, _), _, m = both_turn([Side(hand=("Chop",) * 3, stamina=2), Side()])
    assert len(a.play) == 2 and a.ready == 0 and len(a.hand) == 2  # a Chop and the draw


@rule("PTL-10")
def test_a_single_use_enhancement_is_discarded_an_attached_one_stays():
    (a, _), _, m = both_turn([Side(hand=("Fresh Grip",), play=("Drive Shot",), stamina=2),
                              Side()], policy="pressure")
    assert a.shot["boosts"] == 1 and a.discards == 1
    (a, _), _, m = both_turn([Side(hand=("Sandpaper Paddle",), play=("Drive Shot",),
                                   stamina=3), Side()])
    assert a.play[0][2] == m.pool.lookup("Sandpaper Paddle") and a.discards == 0


@rule("PTL-12", "PTL-13")
def test_recycle_discards_two_for_each_card_drawn_before_the_hit():
    """Nine cards in hand and a long bag: one recycle, two discarded for each card drawn,
    before the hit."""
    bag = ("Tycho Brahe",) * 30
    (a, _), text, m = both_turn([Side(hand=("Tycho Brahe",) * 9, bag=bag), Side()])
    lines = [t for t in text if " recycles " in t]
    assert len(lines) == 1
    names, draws = re.match(r"A recycles (.*); draws (\d+)", lines[0]).groups()
    assert len(names.split(", ")) == 2 * int(draws) and int(draws) >= 1
    assert text.index(lines[0]) < next(i for i, t in enumerate(text) if " hits " in t)
    assert a.bag == 30 - 1 - int(draws)


@rule("PTL-20")
def test_the_hand_is_cut_to_seven_at_the_end_of_ones_own_turn():
    nine = ("Tycho Brahe",) * 9
    (a, b), _, m = both_turn([Side(hand=nine), Side(hand=nine)], policy="default")
    assert (len(a.hand), len(b.hand)) == (7, 9)


@rule("PTL-45")
def test_cards_in_play_stay_in_play():
    (a, _), _, m = both_turn([Side(play=("Chop", "Drive Shot"), taps=(0, 2), stamina=1),
                              Side()])
    assert sorted(c for c, _, _ in a.play) == sorted(
        [m.pool.lookup("Chop"), m.pool.lookup("Drive Shot")])


@rule("PTL-2")
def test_a_player_who_must_draw_from_an_empty_bag_forfeits():
    (a, _), text, m = both_turn([Side(bag=()), Side()])
    assert "A must draw from an empty bag and forfeits" in text
    assert a.shot is None and a.forfeit == 0


@rule("PTL-38")
def test_after_a_point_every_card_is_ready_again_in_both_engines():
    m = matchup()
    chop = int(m.pool.lookup("Chop"))
    P, G, _ = S.new_state()
    P[0, S.PLAY], P[0, S.TAP], P[0, S.PLAY_N], P[0, S.PP_N], P[0, S.PP_READY] = chop, 2, 1, 3, 0
    Ru.reset_after_point(P, G)
    g = ReferenceGame(m, 1, 0)
    g.seats[0] = Seat(table=[InPlay(chop, 2)], power_plant=[0, 0, 0])
    g.reset_after_point()
    assert (P[0, S.TAP], P[0, S.PP_READY]) == (0, 3)
    assert (g.seats[0].table[0].tap, g.seats[0].ready_stamina) == (0, 3)


# Matches, both engines ------------------------------------------------------------------


@functools.cache
def played(n=60, seed=3, policy="greedy", **rules):
    """n matches in both engines (records, histograms, card statistics and logs equal), the
    shot log, and the reference's narrative of each."""
    m = matchup(policy, **rules)
    k = run_batch(m, n, seed, n_log=n)
    assert k.same_as(reference_batch(m, n, seed, n_log=n))
    return m, k, shot_log(k), [replay(m, seed, i).text for i in range(n)]


@rule("PTL-6", "PTL-7", "PTL-8", "PTL-29", "PTL-30", "PTL-32", "PTL-33", "PTL-34", "PTL-35",
      "PTL-36", "PTL-39", "PTL-40", "PTL-41", "PTL-22")
@pytest.mark.parametrize("rules", [{}, {"tie_rule": "first"}], ids=["hitter", "first"])
def test_every_shot_in_both_engines_follows_the_shot_rules(rules):
    """Bonus added to the roll, the return penalty on the next roll, the index from 6 up by
    one a landed shot and held at 20, a natural 20 lands and sets the return's target to 20,
    a natural 1 misses, Advantage on the serve and by Lob > Spin > Drive > Lob and over the
    Default Shot, a Mute against an Ignore by cost: worked out per shot (tests/test_rules)."""
    m, k, log, _ = played(policy="pressure", **rules)
    exp = expected_shots(log, m.rules)
    for col in ("bonus", "penalty_out", "need", "step"):
        assert (log[col] == exp[col]).all(), col
    plain = log.saved == 0
    assert (log.landed[plain] == exp.landed[plain].astype(int)).all()
    assert (log.critical == exp.critical.astype(int)).all()
    assert (log.advantage <= exp.adv_due.astype(int)).all()
    assert ((log.roll == 1) <= (log.landed == 0) | (log.saved > 0)).all()
    assert (log.need[exp.serve] == 6).all() and log.step.max() == 7
    assert log.critical.sum() > 20 and (log.roll == 1).sum() > 20
    # Enhancements boost shot cards (boost_default_shot = false): never the Default Shot.
    assert (log.boosts[log.card < 0] == 0).all() and (log.boosts[log.card >= 0] > 0).any()


@rule("PTL-31")
def test_serve_cards_are_hit_only_on_a_serve():
    m, _, log, _ = played(n=100, policy="pressure")
    exp = expected_shots(log, m.rules)
    serve_only = log.card.map(lambda c: ability(int(c), K.SERVE) >= 0 if c >= 0 else False)
    assert serve_only.sum() > 20 and exp.serve[serve_only].all()


def points(log: pd.DataFrame) -> pd.DataFrame:
    """Each point's scorer by the rulebook: the seat whose shot landed last, or the other
    seat when the serve missed (no shot landed): rows match, game, point, server, scorer."""
    rows = []
    for (mi, g, p), d in log.groupby(["match", "game", "point"], sort=False):
        last = d.iloc[-1]
        scorer = int(last.seat) if last.landed else 1 - int(last.seat)
        rows.append((mi, g, p, int(d.iloc[0].seat), scorer))
    return pd.DataFrame(rows, columns=["match", "game", "point", "server", "scorer"])


@rule("PTL-1", "PTL-19", "PTL-37", "PTL-21", "PTL-14", "PTL-23")
def test_points_games_and_the_match_follow_the_rulebook():
    """Three-game matches: a point to the last successful shot (the receiver's on a missed
    serve), the serve alternating after every point and the opening serve game to game, a
    game won at 11 with no lead of two needed, the match to the first to two games; the
    narrative's running scores are the ones counted here."""
    m, k, log, texts = played(n=40, match_games=3)
    cols = list(Rec.MATCH_COLUMNS)
    clean = k.matches[:, cols.index("deckouts")] == 0
    assert clean.sum() >= 30
    close = 0
    for mi in [i for i in range(len(texts)) if clean[i]]:
        d = points(log[log.match == mi])
        said, counted, openers, wins = [], [], [], []
        for _, dg in d.groupby("game", sort=False):
            assert (dg.server.to_numpy()[1:] != dg.server.to_numpy()[:-1]).all()
            a = (dg.scorer == 0).cumsum().to_numpy()
            b = (dg.scorer == 1).cumsum().to_numpy()
            counted += [("AB"[s], x, y) for s, x, y in zip(dg.scorer, a, b, strict=True)]
            assert max(a[-1], b[-1]) == 11 and max(a[-2], b[-2]) <= 10
            close += min(a[-1], b[-1]) == 10
            openers.append(dg.server.iloc[0])
            wins.append(int(b[-1] > a[-1]))
        for t in texts[mi]:
            got = re.match(r"Point to ([AB]): (\d+)-(\d+)", t)
            if got:
                said.append((got[1], int(got[2]), int(got[3])))
        assert said == counted
        assert all(x != y for x, y in zip(openers, openers[1:], strict=False))
        assert max(wins.count(0), wins.count(1)) == 2 and len(wins) <= 3
    assert close >= 1


@rule("PTL-16")
def test_the_first_serve_goes_to_the_higher_roll_ties_roll_again():
    m, k, log, texts = played()
    ties = 0
    for mi, text in enumerate(texts):
        rolls = [tuple(map(int, re.findall(r"\d+", t))) for t in text
                 if t.startswith("Roll for first serve")]
        ties += sum(a == b for a, b in rolls[:-1])
        a, b = rolls[-1]
        assert a != b and all(x == y for x, y in rolls[:-1])
        assert log[log.match == mi].seat.iloc[0] == (0 if a > b else 1)
    assert ties >= 1


@rule("PTL-17", "PTL-18", "PTL-4", "PTL-15")
def test_seven_cards_one_mulligan_and_the_coach_never_in_the_bag():
    m, k, log, texts = played(policy="random")
    coaches = {m.pool.names[c] for c in range(len(m.pool.names))
               if m.pool.table[c, T.C_KIND] == T.COACH}
    mulligans = 0
    for text in texts:
        for seat in "AB":
            kept = [t for t in text if t.startswith(f"{seat} keeps ")]
            assert all(len(t[len(seat) + 7:].split(", ")) == 7 for t in kept)
            n = sum(t.startswith(f"{seat} mulligans ") for t in text)
            assert n <= 1
            mulligans += n
        assert not any(t.split(" draws ")[-1] in coaches for t in text if " draws " in t)
        assert not any(c in t for t in text if " keeps " in t for c in coaches)
    assert mulligans >= 1


@rule("PTL-18", "PTL-23")
def test_each_game_of_a_match_begins_with_its_own_mulligan():
    """"at the end of each game, shuffle your cards back into your deck and begin the next
    game by drawing 7 cards" and "You can mulligan this way once": the mulligan is once a
    game, so a seat may mulligan in game 1 and again in game 2 of a match."""
    m, k, log, texts = played(n=40, policy="random", match_games=3)
    again = 0
    for text in texts:
        games = "\n".join(text).split("== game ")[1:]
        for seat in "AB":
            per_game = [g.count(f"\n{seat} mulligans ") for g in games]
            assert all(n <= 1 for n in per_game)
            again += sum(per_game) >= 2
    assert again >= 1


@rule("PTL-4", "PTL-23")
def test_a_coach_acts_again_in_every_game_of_a_match():
    """The coaches stay in play for the entire match and their cards say "Once a game": in
    a match of three games a seat's coach may save a shot (reroll or clutch) in one game and
    again in the next, and never twice in one game."""
    m, k, log, texts = played(n=40, match_games=3)
    saves = log[log.saved > 0].groupby(["match", "seat", "game"]).size()
    assert (saves == 1).all()
    per_match = saves.groupby(level=["match", "seat"]).size()
    assert (per_match >= 2).sum() >= 1


@rule("PTL-53", "PTL-20")
def test_surplus_stamina_is_discarded_first_at_the_hand_limit():
    """Decisions: a Stamina in hand is wanted while the Power Plant and the hand's earlier
    Stamina are fewer than stamina_cap (8), else worth -1, so at the hand limit a player with
    eight Stamina in play discards the Stamina in hand first (three of ten cards go)."""
    hand = ("Stamina",) * 3 + ("Tycho Brahe",) * 6
    (a, _), text, m = both_turn([Side(hand=hand, stamina=8), Side()])
    assert m.pool.lookup("Stamina") not in a.hand and len(a.hand) == 7
    assert text[-1] == "A discards Stamina, Stamina, Stamina"


@rule("PTL-50", "PTL-7")
def test_the_look_ahead_reads_the_return_against_this_shots_penalty():
    """Decisions 5: `look` weighs P(the shot lands and a plain return then misses), the
    plain return facing the next target plus this shot's return penalty (or crit_target
    plus it after a critical). A serve at 6 with no bonus and penalty 3: it lands on 6..20
    (15 faces, 20 a critical); a plain return then needs 8 + 3 = 11 (misses on 1..10, 10
    faces) or, after the critical, 20 + 3 (misses on 1..19). So 14/20 x 10/20 + 1/20 x
    19/20 = 0.3975 in both engines."""
    want = 14 / 20 * 10 / 20 + 1 / 20 * 19 / 20
    p_hit, look = Sh.option_odds(0, 3, 20, 6, 8, 20, True)
    assert (p_hit, look) == pytest.approx((15 / 20, want))
    g = ReferenceGame(matchup(), 1, 0)
    g.reset_after_point()
    features = g.features(Shot(penalty=3), 0)
    assert features[0] == pytest.approx(15 / 20) and features[2] == pytest.approx(want)

