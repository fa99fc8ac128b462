"""The exact solver: closed forms by hand, and agreement with simulation in 20 settings."""

import itertools

import numpy as np
import pytest

from sim.paintline import exact as ex
from sim.paintline import scoring as sc
from sim.paintline.batch import load_matchup, run_batch
from sim.paintline.options import load_rules

from .conftest import FOLDER

RULES = load_rules(FOLDER / "rules.toml").replace(rally_mode=True)


def rally_matchup(a=(), b=(), pa="greedy", pb=None, **rules):
    return load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", pa, pb or pa,
                        RULES.replace(**rules), (list(a), list(b)))


def test_default_rally_is_a_product_of_shot_chances():
    # One step, and a critical changes nothing: every shot lands with q = (21 - 10) / 20.
    m = rally_matchup(pa="default", escalation=[10], crit_target=10)
    a, b = ex.rally_answers(m)
    q = 11 / 20
    k = np.arange(len(a.length) - 1)
    assert np.allclose(a.length[:-1], q**k * (1 - q), atol=1e-15)
    assert a.server_wins == pytest.approx(q / (1 + q), abs=1e-14)
    assert a.mean_length == pytest.approx(q / (1 - q), abs=1e-12)
    assert b.server_wins == pytest.approx(a.server_wins, abs=1e-15)


def test_default_rally_with_criticals_by_hand():
    a, _ = ex.rally_answers(rally_matchup(pa="default"))
    # Serve at 6 lands on 6..20 (15/20); a natural 20 makes the return need 20 (1/20).
    assert a.length[0] == pytest.approx(5 / 20)
    assert a.length[1] == pytest.approx(14 / 20 * 7 / 20 + 1 / 20 * 19 / 20)
    assert a.survival[1] == pytest.approx(15 / 20)
    assert a.length.sum() == pytest.approx(1, abs=1e-12)
    assert a.top.sum() == pytest.approx(1, abs=1e-12)


def test_clamped_shot_chances_and_the_rulebook_critical():
    for target in (2, 6, 13, 20, 25):
        plain, crit = ex.land_chances(0, target, 20)
        assert plain + crit == pytest.approx(min(max((21 - target) / 20, 1 / 20), 19 / 20))
    # Index 12 after a critical: the return needs 20 + 1 = 21; +8 makes 13..20 enough.
    plain, crit = ex.land_chances(8, 21, 20)
    assert (plain, crit) == (pytest.approx(7 / 20), pytest.approx(1 / 20))
    assert sum(ex.land_chances(7, 21, 20)) == pytest.approx(7 / 20)
    # Fractional worth mixes the integer bonuses around it.
    assert sum(ex.land_chances(0.25, 10, 20)) == pytest.approx(0.75 * 11 / 20 + 0.25 * 12 / 20)


def test_more_bonus_never_lowers_the_point_win():
    m = rally_matchup(["Drive Shot"], ["Topspin"])
    wins = [ex.point_win(m, (x, 0.0)) for x in (-3, -1, 0, 0.5, 1, 2, 4)]
    assert all(b >= a - 1e-12 for a, b in itertools.pairwise(wins))
    import dataclasses

    from sim.paintline.pool import C_ABONUS, C_NBONUS

    card = m.pool.lookup("Drive Shot")
    last = -1.0
    for extra in range(4):
        pool = m.pool.with_values({(card, C_NBONUS): 1 + extra, (card, C_ABONUS): 2 + extra})
        p = ex.point_win(dataclasses.replace(m, pool=pool))
        assert p >= last - 1e-12
        last = p


def brute_game(pa, pb, points, win_by, a_first, depth=600):
    """Sum over every point sequence (truncated where the remainder is negligible)."""
    total = 0.0
    states = {(0, 0): 1.0}
    for t in range(depth):
        nxt = {}
        for (a, b), p in states.items():
            a_serves = (t % 2 == 0) == a_first
            q = pa if a_serves else 1 - pb
            for (na, nb), w in (((a + 1, b), q), ((a, b + 1), 1 - q)):
                if na >= points and na - nb >= win_by:
                    total += p * w
                elif not (nb >= points and nb - na >= win_by):
                    nxt[(na, nb)] = nxt.get((na, nb), 0.0) + p * w
        states = nxt
    return total


@pytest.mark.parametrize("points,win_by", [(11, 1), (11, 2), (5, 3), (1, 1)])
def test_game_odds_match_brute_force(points, win_by):
    for pa, pb, first in ((0.45, 0.55, True), (0.6, 0.5, False), (0.5, 0.5, True)):
        exact = sc.game_win(pa, pb, points, win_by, first)
        assert exact == pytest.approx(brute_game(pa, pb, points, win_by, first), abs=1e-10)
    assert sc.game_win(0.5, 0.5, 11, 2, True) == pytest.approx(0.5)
    # From 10-10 with win by 1, the next point decides: A serves it when A served first.
    assert sc.game_win(0.6, 0.55, 11, 1, True, (10, 10)) == pytest.approx(0.6)
    assert sc.game_win(0.6, 0.55, 11, 1, False, (10, 10)) == pytest.approx(0.45)
    table = sc.game_table(0.6, 0.55, 11, 2, True)
    assert table.p_a_wins_game.between(0, 1).all() and len(table) == 13 * 13


def test_match_odds():
    assert sc.match_win(0.5, 0.5, 5) == pytest.approx(0.5)
    assert sc.match_win(0.6, 0.6, 1) == pytest.approx(0.6)
    g = 0.6
    assert sc.match_win(g, g, 3) == pytest.approx(g**2 + 2 * g**2 * (1 - g))


def test_worth_on_the_die():
    """A card with +b in both value sets and no penalty, ready every turn (two untap steps),
    is the Default Shot with b added: worth exactly b on the die."""
    import dataclasses

    from sim.paintline.pool import C_ABONUS, C_APEN, C_NBONUS, C_NPEN

    for b in (2, 3):
        m = rally_matchup(["Drive Shot"], [], "greedy", "default", untap_steps=2)
        card = m.pool.lookup("Drive Shot")
        pool = m.pool.with_values({(card, C_NBONUS): b, (card, C_ABONUS): b, (card, C_NPEN): 0,
                                   (card, C_APEN): 0})
        assert ex.worth_on_the_die(dataclasses.replace(m, pool=pool)) == pytest.approx(
            b, abs=1e-5)
    lenin = rally_matchup(["Order of Lenin"], [], "greedy", "default")
    worth = ex.worth_on_the_die(lenin)
    assert 2 < worth < 8
    assert ex.point_win(lenin) == pytest.approx(
        ex.point_win(rally_matchup(pa="default"), (worth, 0.0)), abs=1e-7)


CONFIGS = [
    dict(),
    dict(a=["Drive Shot"], b=["Topspin"]),
    dict(a=["Drive Shot", "Moon Ball"], b=["Chop", "Counter Drive"], pa="pressure"),
    dict(a=["Liberty Lob", "Yankee Spin"], b=["Iron Curtain", "Hammer Stroke"]),
    dict(a=["Liberty Lob", "Yankee Spin"], b=["Iron Curtain", "Hammer Stroke"],
         tie_rule="first"),
    dict(a=["Apollo Serve", "Eagle Eye"], b=["Sputnik Serve", "Red Star Smash"],
         pa="lookahead"),
    dict(a=["Second Wind", "Power Smash", "Topspin"], b=["Five-Year Plan", "Heavy Backspin"]),
    dict(a=["Order of Lenin"], b=["Drive Shot", "High Lob", "Push"], pa="random"),
    dict(a=["Star-Spangled Smash"], b=["Red Star Smash"], escalation=[5, 9, 13, 17, 21]),
    dict(a=["Drive Shot"], b=["Deep Lob"], crit_target=16),
    dict(a=["Eagle Eye"], b=["Order of Lenin"], crit_target=22, pa="lookahead"),
    dict(a=["Push", "Flat Hit"], b=["High Lob"], untap_steps=0),
    dict(a=["Push", "Flat Hit", "Chop", "Topspin"], b=["High Lob", "Moon Ball"],
         untap_steps=2, pa="balanced"),
    dict(a=["Short Serve", "Drive Shot"], b=["Drive Shot"], serve_miss="replay"),
    dict(a=["Topspin"], b=["Counter Drive"], win_by=2, points_to_win=7),
    dict(a=["Fishing Lob", "Heavy Backspin"], b=["Power Smash"], win_by=2, match_games=3),
    dict(a=[], b=["Order of Lenin", "Iron Curtain"], pb="pressure"),
    dict(a=["Deep Lob", "Chop"], b=["Counter Drive", "Moon Ball"], pa="random", pb="random"),
    dict(a=["Home Run Drive", "Comrade's Return"], b=["Liberty Lob"], escalation=[4, 12, 20]),
    dict(a=["Sputnik Serve", "Five-Year Plan", "Hammer Stroke", "Iron Curtain"],
         b=["Apollo Serve", "Second Wind", "Liberty Lob", "Yankee Spin"], pa="lookahead",
         pb="pressure", match_games=5),
]


@pytest.mark.parametrize("k", range(len(CONFIGS)))
def test_simulation_agrees_with_exact(k):
    cfg = dict(CONFIGS[k])
    m = rally_matchup(cfg.pop("a", ()), cfg.pop("b", ()), cfg.pop("pa", "greedy"),
                      cfg.pop("pb", None), **cfg)
    answer = ex.solve(m)
    games = 12_000 * 11 // m.rules.values["points_to_win"] + 2_000
    rec = run_batch(m, games, seed=100 + k)
    df = ex.check(answer, rec.hists["length"].sum(axis=0), rec.hists["top_step"].sum(axis=0),
                  int((rec.matches[:, 0] == 0).sum()), games)
    # Lopsided configurations end games in fewer points, hence 190,000 rather than 200,000.
    assert df[df.quantity == "P(server wins point)"].n.sum() >= 190_000
    worst = df.loc[df.z.abs().idxmax()]
    assert not df.flag.any(), f"{worst.quantity} seat {worst.seat}: z {worst.z:.2f}"


def test_cardlab_rally_command():
    from .conftest import cardlab

    out = cardlab("rally", "--arsenal-a", "Drive Shot,Topspin", "--arsenal-b", "Order of Lenin",
                  "--worth", "--check", "3000")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "P(server wins point)" in out.stdout and "worth" in out.stdout
    assert "exact vs 3,000 simulated matches" in out.stdout and "FLAG" not in out.stdout
    bad = cardlab("rally", "--arsenal-a", "Drive Shto")
    assert bad.returncode == 2 and "Drive Shot" in bad.stderr and "Traceback" not in bad.stderr


def test_cardlab_exact_command_reads_arsenals_from_the_rules():
    from .conftest import cardlab

    out = cardlab("exact", "--rules", "rally_mode=true", "--rules",
                  'arsenal_a=["Drive Shot"]', "--check", "2000")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "P(server wins point)" in out.stdout and "FLAG" not in out.stdout
    full = cardlab("exact", "--check", "100")
    assert full.returncode == 2 and "not covered" in full.stderr
