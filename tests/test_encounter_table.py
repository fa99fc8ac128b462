"""Encounter at a table of three and four (rule option players), from the rulebook's text:
turns go clockwise; each opponent, counterclockwise from the active player, has its own quest
step with its own strike budget; the opponents pick strikers in turn counterclockwise from
the active player's right; a killed PC puts its player out and the last PC standing wins.
Both engines play; their records and logs agree, and the rules are read from the logs."""

from pathlib import Path

import numpy as np
import pytest

from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.batch import load_matchup, with_rules
from sim.game import get
from sim.problems import InputError

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"
GAME = get("encounter")
POLICIES = ("random", "careful", "aggressive", "trained")


def table(players, policy="careful", rules=None):
    return load_matchup(FOLDER, "orc-warband", "grey-expedition", policy, policy,
                        {"players": players, **(rules or {})}, [])


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("policy", POLICIES)
def test_kernel_equals_reference_at_a_larger_table(players, policy):
    m = table(players, policy)
    k = GAME.run_batch(m, 30, 7, 0, 3)
    assert k.same_as(GAME.reference_batch(m, 30, 7, 0, 3))
    assert k.matches.shape[1] == 4 + 9 * players
    assert k.hists["pc_death"].shape[1] == players == k.card_stats.shape[0]
    two = GAME.run_batch(table(2, policy), 30, 7, 0, 3)
    assert not np.array_equal(two.matches[:, :4], k.matches[:, :4])


def test_the_seats_take_the_folders_table_decks_and_b_s_policy():
    m = load_matchup(FOLDER, "grey-scholars", "orc-ambush", "careful", "random",
                     {"players": 4}, [], table=("orc-warband",))
    assert [d.name for d in m.decks] == ["grey-scholars", "orc-ambush", "orc-warband",
                                         "grey-scholars"]
    assert m.policy_names == ("careful", "random", "random", "random")
    three = with_rules(table(2), {"players": 3})
    assert [d.name for d in three.decks] == ["orc-warband", "grey-expedition", "orc-ambush"]


@pytest.mark.parametrize("bad", [1, 9])
def test_players_outside_two_to_four_is_an_input_error(bad):
    with pytest.raises(InputError, match="players"):
        table(bad)


def turns(log):
    """Per turn: (active seat, [log rows of that turn])."""
    out = []
    for row in log:
        seat, ev = int(row[1]), int(row[2])
        if ev == S.EV_TURN:
            out.append((seat, []))
        elif out:
            out[-1][1].append(tuple(int(x) for x in row))
    return out


def logs(m, n, seed):
    rec = GAME.run_batch(m, n, seed, 0, n)
    ref = GAME.reference_batch(m, n, seed, 0, n)
    assert rec.same_as(ref)
    return rec, [rec.log[i, : rec.log_n[i]] for i in range(n)]


def test_a_killed_pc_puts_its_player_out_and_the_last_one_standing_wins():
    """Quests worth nothing toward a win (points_to_win out of reach) and ties to the
    striker: PCs fall; a seat whose PC was killed takes no turn after it, and the match
    ends when one PC is left, its player the winner."""
    n = 3
    m = table(n, "aggressive", {"points_to_win": 999, "max_turns": 600,
                                "combat_tie": "striker"})
    rec, all_logs = logs(m, 12, 2)
    cols = GAME.schema_for(m).match_columns
    death = [list(cols).index(f"pc_death_turn_{x}") for x in "abc"]
    killed = 0
    for i, log in enumerate(all_logs):
        row = rec.matches[i]
        dead = {p: row[death[p]] for p in range(n) if row[death[p]] >= 0}
        for t, (a, _) in enumerate(turns(log), 1):
            assert all(t <= dt for p, dt in dead.items() if p == a)
        if row[1] == K.END_KILLED:
            killed += 1
            assert len(dead) == n - 1 and row[0] not in dead
    assert killed > 0
