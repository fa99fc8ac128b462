"""Property tests of Paint the Line: random legal rule options and random legal decks from the
pool; kernel and reference agree and the invariants hold for a few matches each."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.paintline import pool as T
from sim.paintline.batch import load_matchup, run_batch
from sim.paintline.decks import Deck
from sim.paintline.reference import reference_batch

from .conftest import FOLDER
from .test_engine import CheckedGame, assert_same

BASE = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy")
POOL = BASE.pool
POLICY_NAMES = ("default", "random", "greedy", "pressure", "lookahead", "balanced")

rule_options = st.fixed_dictionaries({
    "serve_miss": st.sampled_from(["receiver_scores", "replay"]),
    "deck_out": st.sampled_from(["forfeit_on_empty_draw", "forfeit_when_empty"]),
    "points_to_win": st.integers(3, 11),
    "win_by": st.integers(1, 2),
    "hand_limit": st.integers(3, 9),
    "opening_hand": st.integers(4, 8),
    "mulligans": st.integers(0, 2),
    "untap_steps": st.integers(0, 2),
    "recycle_ratio": st.integers(1, 3),
    "match_games": st.sampled_from([1, 3]),
    "tie_rule": st.sampled_from(["hitter", "first"]),
    "boosts_per_shot": st.integers(0, 3),
    "boost_default_shot": st.booleans(),
    "crit_target": st.integers(16, 22),
    "escalation": st.lists(st.integers(2, 22), min_size=2, max_size=8, unique=True).map(sorted),
})


@st.composite
def decks(draw, nation: int):
    """A legal 60-card deck: a coach of the nation, Stamina, and at most 4 copies of other
    cards of the nation or neutral (Blanks included)."""
    table = POOL.table
    coach = next(c for c in range(len(POOL)) if table[c, T.C_KIND] == T.COACH
                 and table[c, T.C_NATION] == nation)
    stamina = next(c for c in range(len(POOL)) if table[c, T.C_KIND] == T.STAMINA)
    others = [c for c in range(len(POOL)) if table[c, T.C_KIND] not in (T.COACH, T.STAMINA)
              and table[c, T.C_NATION] in (T.NEUTRAL, nation)]
    n_stamina = draw(st.integers(8, 30))
    counts = {}
    room = 59 - n_stamina
    for c in draw(st.permutations(others)):
        if room == 0:
            break
        k = draw(st.integers(0, min(4, room)))
        if k:
            counts[c] = k
            room -= k
    n_stamina += room  # whatever is left is Stamina, which has no copy limit
    cards = ((coach, 1), (stamina, n_stamina), *counts.items())
    return Deck(FOLDER / "drawn.deck", "drawn", cards, coach, nation)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=rule_options, a=decks(T.NATIONS.index("US")), b=decks(T.NATIONS.index("USSR")),
       pa=st.sampled_from(POLICY_NAMES), pb=st.sampled_from(POLICY_NAMES),
       seed=st.integers(0, 2**32))
def test_kernel_equals_reference_and_invariants_hold(options, a, b, pa, pb, seed):
    m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", pa, pb,
                     BASE.rules.replace(**options))
    m = dataclasses.replace(m, decks=(a, b))
    assert sum(n for _, n in a.counts) == sum(n for _, n in b.counts) == 60
    kernel = run_batch(m, 3, seed=seed, n_log=3)
    assert_same(kernel, reference_batch(m, 3, seed=seed, n_log=3))
    frame = kernel.matches_frame()
    need = options["match_games"] // 2 + 1
    for i in range(3):
        game = CheckedGame(m, seed, i)  # cards conserved, index on the ladder, hand limit
        game.play_match()
        assert game.record[0] in (0, 1)
        won = [s.games_won for s in game.seats]
        assert won[game.record[0]] == need and won[1 - game.record[0]] < need
    assert (np.where(frame.winner == 0, frame.games_a, frame.games_b) == need).all()
