"""Encounter at a table of three and four (rule option players), from the rulebook's text:
turns go clockwise; each opponent, counterclockwise from the active player, has its own quest
step with its own strike budget; the opponents pick strikers in turn counterclockwise from
the active player's right; a killed PC puts its player out and the last PC standing wins.
Both engines play; their records and logs agree, and the rules are read from the logs."""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from sim.core.problems import InputError
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.batch import load_matchup, with_rules
from sim.kit.game import get

from .conftest import cardlab

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
    assert k.matches.shape[1] == 5 + 10 * players
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


def deaths(rec, m, i, n):
    """Seat -> the turn its PC was killed in, for the seats whose PC was killed."""
    cols = list(GAME.schema_for(m).match_columns)
    row = rec.matches[i]
    return {p: int(row[cols.index(f"pc_death_turn_{x}")]) for p, x in enumerate("abcd"[:n])
            if row[cols.index(f"pc_death_turn_{x}")] >= 0}


def still_in(dead, p, t):
    """Seat p is in at turn t unless its PC was killed in an earlier turn."""
    return p not in dead or dead[p] >= t


@pytest.mark.parametrize("n, choose", [(3, "each_turn"), (4, "each_turn"), (4, "once")])
@pytest.mark.rule("ENC-35", "ENC-37", "ENC-93")
def test_turns_go_clockwise_in_rounds_of_every_player_still_in(n, choose):
    """"Each player, going clockwise around the table, takes a turn": seats 0..N-1 sit
    clockwise, the next player is the one to the left (+1). Under each_turn the chooser
    names the first player of every round (an EV_FIRST row), and the round is one turn of
    each player still in, clockwise from it; under once there is one choice at set-up.
    A player whose PC was killed takes no turn after it."""
    m = table(n, "aggressive", {"choose_first": choose, "combat_tie": "striker"})
    rec, all_logs = logs(m, 16, 3)
    rounds = outs = 0
    for i, log in enumerate(all_logs):
        dead = deaths(rec, m, i, n)
        outs += len(dead)
        played, last = set(), None
        firsts = [r for r in log if r[2] == S.EV_FIRST]
        assert firsts[0][4] == rec.matches[i, 2]
        for r in log:
            t, seat, ev = int(r[0]), int(r[1]), int(r[2])
            if ev == S.EV_FIRST:
                assert choose == "each_turn" or last is None
                # A new round only once every player still in has had its turn.
                assert last is None or all(p in played or not still_in(dead, p, t + 1)
                                           for p in range(n))
                played, last = set(), None
                first = int(r[4])
            elif ev == S.EV_TURN:
                assert still_in(dead, seat, t)
                if last is None:
                    want = first
                else:
                    want = next(q for q in ((last + j) % n for j in range(1, n + 1))
                                if still_in(dead, q, t) and (choose == "once" or
                                                             q not in played))
                assert seat == want
                rounds += last is None
                played.add(seat)
                last = seat
    assert outs > 0 and (choose == "once" or rounds > 16)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rounds_and_the_round_a_pc_fell_in_are_read_from_the_log(n):
    """Under choose_first = each_turn "the chooser names the first player of every round"
    (an EV_FIRST row before the round's first turn), so the rounds column counts those rows,
    a PC killed in turn t fell in the round of the last such row before t, and the PC's
    survival histogram counts it in that round (a round is one turn of each player still
    in: at four seats with one out it is three turns)."""
    m = table(n, "aggressive", {"choose_first": "each_turn", "combat_tie": "striker",
                                "strike_budget": "each"})
    rec, all_logs = logs(m, 40, 2)
    cols = list(GAME.schema_for(m).match_columns)
    killed = 0
    for i, log in enumerate(all_logs):
        starts = [int(r[0]) for r in log if r[2] == S.EV_FIRST]  # turns done before it
        assert rec.matches[i, cols.index("rounds")] == len(starts)
        hist = rec.hists["pc_death"][i]
        for p, x in enumerate("abcd"[:n]):
            t = int(rec.matches[i, cols.index(f"pc_death_turn_{x}")])
            r = int(rec.matches[i, cols.index(f"pc_death_round_{x}")])
            if t < 0:
                assert r == -1 and hist[p].sum() == 0
                continue
            killed += 1
            assert r == sum(s < t for s in starts)
            assert hist[p, r] == 1 and hist[p].sum() == 1
    assert killed >= 3


@pytest.mark.parametrize("n, choose", [(2, "each_turn"), (3, "once"), (4, "each_turn")])
def test_the_cap_counts_rounds_of_every_player_still_in(n, choose):
    """max_rounds = R: the match is a draw (end round_or_turn_cap) once R rounds are played, a round
    being one turn of each player still in. So in a capped match every seat still in took
    exactly R turns and one that went out took at most R, at any table size (a cap on all
    the players' turns together would give each of four players a quarter of it)."""
    cap = 4
    m = table(n, "aggressive", {"points_to_win": 999, "max_rounds": cap,
                                "choose_first": choose, "combat_tie": "striker",
                                "strike_budget": "each"})
    rec, all_logs = logs(m, 24, 5)
    cols = list(GAME.schema_for(m).match_columns)
    capped = 0
    for i, log in enumerate(all_logs):
        dead = deaths(rec, m, i, n)
        taken = [sum(seat == p for seat, _ in turns(log)) for p in range(n)]
        assert max(taken) <= cap
        if rec.matches[i, cols.index("end")] == K.END_CAP:
            capped += 1
            assert rec.matches[i, cols.index("winner")] == -1
            assert all(taken[p] == cap for p in range(n) if p not in dead)
    assert capped > 12


def test_the_headline_names_the_cap_that_ended_the_match(tmp_path):
    """The rules end a match as a draw after max_rounds rounds (or max_turns turns of all
    the players, where set): the headline's row of that end names rounds as well as turns,
    and counts every draw of a run capped at two rounds."""
    out = cardlab("simulate", "--folder", "encounter", "-n", "200", "--rules", "max_rounds=2",
                  "--results", str(tmp_path), "--run-id", "r", "-q")
    assert out.returncode == 0, out.stderr
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in out.stdout.splitlines() if line.startswith("│")}
    assert "ended by turn_cap" not in rows
    assert rows["ended by round_or_turn_cap"] == rows["draws"]
    assert int(rows["draws"]) > 150


@pytest.mark.parametrize("budget", ["shared", "each"])
@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.rule("ENC-65", "ENC-71", "ENC-73")
def test_each_opponent_has_its_own_quest_step_counterclockwise(n, budget):
    """"Starting on the right of the active player, each player gets one quest step to
    play cards against you": the opponents still in, counterclockwise from A's right (-1,
    -2 ...), each open a strike budget (the quest row for the first, a budget row for each
    later one) and pay their strike cards from it. strike_budget = shared ("The total, if
    any, is the new quest cost available for playing other strike cards"): a later
    opponent starts from what those before it left, its own Budget the only addition; each:
    it starts afresh, and together the opponents spend more than one budget holds."""
    m = table(n, "aggressive", {"strike_budget": budget})
    rec, all_logs = logs(m, 20, 3)
    over_one_budget = passed_on = 0
    for i, log in enumerate(all_logs):
        dead = deaths(rec, m, i, n)
        for t, (a, rows) in enumerate(turns(log), 1):
            quest = [r for r in rows if r[2] in (S.EV_QUEST, S.EV_BUDGET) and r[3] >= 0]
            if not quest:
                continue
            opponents = [(a - j) % n for j in range(1, n) if still_in(dead, (a - j) % n, t)]
            opener = [opponents[0]] + [r[1] for r in quest[1:]]
            ended = dead.get(a) == t or t == len(turns(log))
            assert opener == opponents or ended and opener == opponents[:len(opener)]
            spent, left = dict.fromkeys(opener, 0), None
            for j, r in enumerate(quest):
                seat, start = opener[j], rows.index(r)
                if budget == "shared" and left is not None:
                    assert r[4] >= left  # what was left, and its own Budget, if any
                    passed_on += r[4] == left < quest[0][4]
                nxt = rows.index(quest[j + 1]) if j + 1 < len(quest) else len(rows)
                for s in rows[start + 1: nxt]:
                    if s[2] == S.EV_STRIKE:
                        assert s[1] == seat
                        spent[seat] += s[4]
                        assert s[5] == r[4] - spent[seat]  # the budget left
                assert spent[seat] <= r[4]
                left = r[4] - spent[seat]
            if sum(spent.values()) > quest[0][4]:
                over_one_budget += 1
    if budget == "each":
        assert over_one_budget > 0  # together the opponents spent more than one budget holds
    else:
        assert passed_on > 0  # a later opponent started from what an earlier one left


@pytest.mark.rule("ENC-83")
def test_opponents_pick_strikers_in_turn_counterclockwise():
    """"The opponent to the right of the active player chooses one of his or her striking
    NPCs", then "the opponent to the right of the one who chose the encounter previously":
    around the opponents counterclockwise, passing over one with none waiting (back to the
    last chooser when it alone has strikers left). A whole strike budget for each opponent
    (strike_budget = each) has several opponents send strikers in few matches; the order
    of choosing does not depend on it."""
    n = 3
    m = table(n, "aggressive", {"strike_budget": "each"})
    kinds = m.pool.table[:, K.C_NATURE]
    _, all_logs = logs(m, 20, 5)
    checked = 0
    for log in all_logs:
        for a, rows in turns(log):
            sent = [(r[1], r[3]) for r in rows if r[2] == S.EV_STRIKE and kinds[r[3]] ==
                    K.STRIKE]
            fought = [r[3] for r in rows if r[2] == S.EV_COMBAT]
            cards = [c for _, c in sent]
            if (len(sent) < 2 or len(set(cards)) < len(cards) or len(fought) < len(sent)
                    or any(r[2] in (S.EV_CANCEL, S.EV_KILL) for r in rows)):
                continue  # every striker fights once and each card names its owner
            owner = {c: s for s, c in sent}
            waiting = {s: sum(1 for o, _ in sent if o == s) for s in set(owner.values())}
            expect, chooser = [], a
            while any(waiting.values()):
                q = next(q for q in ((chooser - j) % n for j in range(1, n + 1))
                         if q != a and waiting.get(q, 0) > 0)
                expect.append(q)
                waiting[q] -= 1
                chooser = q
            assert [owner[c] for c in fought] == expect
            checked += len(set(expect)) > 1
    assert checked > 0


@pytest.mark.rule("ENC-92")
def test_a_killed_pc_puts_its_player_out_and_the_last_one_standing_wins():
    """Quests worth nothing toward a win (points_to_win out of reach) and ties to the
    striker: PCs fall; a seat whose PC was killed takes no turn after it, and the match
    ends when one PC is left, its player the winner (a whole strike budget for each
    opponent, so that PCs fall within a few matches)."""
    n = 3
    m = table(n, "aggressive", {"points_to_win": 999, "max_rounds": 200,
                                "combat_tie": "striker", "strike_budget": "each"})
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


# -- end to end on the command line ----------------------------------------------------------
def test_simulate_and_report_a_table_of_four(tmp_path):
    """players=4 plays four decks (C and D from --table) and prints each seat's win rate
    with an interval, a row per seat (the seat named where a deck and policy sit twice);
    the report has the Seats section and the card tables name the seat."""
    out = cardlab("simulate", "--folder", "encounter", "--rules", "players=4", "-n", "300",
                  "--seed", "2", "--table", "orc-ambush,orc-warband", "--results",
                  str(tmp_path), "--run-id", "t4")
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if " wins " in line]
    seats = ["orc-warband (careful, seat A) wins", "grey-expedition (careful) wins",
             "orc-ambush (careful) wins", "orc-warband (careful, seat D) wins"]
    for label in seats:
        row = next(line for line in rows if label in line)
        assert re.search(r"\b300\b.*\d\.\d{4} \.\. \d\.\d{4}", row), row
    assert "95% interval" in out.stdout
    out = cardlab("report", "t4", "--results", str(tmp_path), "--verdict-start", "20",
                  "--verdict-max", "20", "-q")
    assert out.returncode == 0, out.stderr
    md = (tmp_path / "t4" / "report.md").read_text()
    seats_part = md[md.index("## Seats"):md.index("## ", md.index("## Seats") + 3)]
    assert "A table of 4" in seats_part and "| position |" in seats_part.replace("  ", "")
    # Every seating of the four decks (orc-warband twice) on the run's seeds: 24 of them,
    # so each position is counted over 24 x 300 = 7,200 matches.
    over = md[md.index("## Turn position over every seating"):]
    assert "all 24 seatings" in over and re.search(r"\|\s*7,200\s*\|", over)
    for letter in "ABCD":
        assert re.search(rf"^\| {letter} +\| orc|^\| {letter} +\| grey", md, re.M), letter


def test_a_whatif_of_the_table_size_shows_every_seat_of_both_arms(tmp_path):
    """whatif players=3 against two: each arm's wins and draws sum to 1 over its own seats;
    a row of seat C, which sits in the variant only, has a blank baseline and no paired
    difference; the rows of both arms' seats are paired."""
    out = cardlab("whatif", "--folder", "encounter", "--change", "players=3", "-n", "300",
                  "--results", str(tmp_path))
    assert out.returncode == 0, out.stderr
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in out.stdout.splitlines() if line.count("│") == 7}
    wins = ["orc-warband wins", "grey-expedition wins", "orc-ambush wins", "draws"]
    assert sum(float(rows[w][1]) for w in wins) == pytest.approx(1)
    assert sum(float(rows[w][0]) for w in wins if rows[w][0]) == pytest.approx(1)
    for row in ("orc-ambush wins", "PC killed (orc-ambush)",
                "quests completed per attempt (orc-ambush)"):
        baseline, variant, delta, lo, hi = rows[row]
        assert baseline == delta == lo == hi == "" and 0 <= float(variant) <= 1, row
    baseline, variant, delta, lo, hi = map(float, rows["orc-warband wins"])
    assert delta == pytest.approx(variant - baseline, abs=1e-4) and lo <= delta <= hi


def test_a_whatif_at_a_table_of_three_compares_every_seat(tmp_path):
    from sim.experiments.designs import whatif

    w = whatif(GAME, table(3), {"pool_per_turn": 4}, 300, 1, results=tmp_path,
               run_id="w").set_index("item")
    decks = ("orc-warband", "grey-expedition", "orc-ambush")
    for arm in ("baseline", "variant"):
        assert w.loc[[f"{d} wins" for d in decks] + ["draws"], arm].sum() == pytest.approx(1)
    for d in decks:
        for row in (f"quests completed per attempt ({d})", f"PC killed ({d})",
                    f"strikers defeated per strike faced ({d})",
                    f"opening hand held a quest ({d})"):
            assert w.loc[row, ["baseline", "variant", "delta", "lo", "hi"]].notna().all(), row


def test_a_whatif_names_a_deck_at_two_seats_alike_in_both_arms(tmp_path):
    from sim.experiments.designs import whatif

    # Seat C takes the folder's third table deck, orc-ambush: A's deck as well.
    m = load_matchup(FOLDER, "orc-ambush", "grey-expedition", "careful", "careful", {}, [])
    w = whatif(GAME, m, {"players": 3}, 200, 1, results=tmp_path, run_id="w")
    items = set(w["item"])
    assert {"orc-ambush (seat A) wins", "orc-ambush (seat C) wins"} <= items
    assert "orc-ambush wins" not in items
    seat_a = w.set_index("item").loc["orc-ambush (seat A) wins"]
    assert seat_a[["baseline", "variant", "delta"]].notna().all()


@pytest.mark.parametrize("bad", ["1", "9"])
def test_players_outside_two_to_four_exit_2_on_the_command_line(bad, tmp_path):
    out = cardlab("simulate", "--folder", "encounter", "--rules", f"players={bad}", "-n",
                  "10", "--results", str(tmp_path))
    assert out.returncode == 2
    assert "players" in out.stderr and "2..4" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


@pytest.mark.parametrize("players", [2, 4])
def test_the_replay_header_shows_every_seats_points(players):
    """Each turn's header line names every seat's points: a seat that has just scored
    shows its new total ("... for N points (T in all)") in the next header."""
    m = table(players)
    names = [d.name for d in m.decks]
    found = 0
    for match in range(20):
        lines = get("encounter").replay(m, 5, match).text
        total = dict.fromkeys(names, 0)
        for line in lines:
            score = re.match(r"score: (\S+) completes .* \((\d+) in all\)", line)
            if score:
                total[score[1]] = int(score[2])
            head = re.match(r"-- turn \d+: \S+ \(points (.*)\)", line)
            if head:
                shown = ([int(x) for x in head[1].split("-")] if players == 2 else
                         [int(part.rsplit(" ", 1)[1]) for part in head[1].split(", ")])
                assert shown == [total[n] for n in names], (line, total)
                found += sum(shown)
    assert found > 0  # some header showed points scored


def test_the_quest_line_names_the_opponent_whose_budget_it_gives():
    """Opponents' quest steps run counterclockwise: while every PC is in, the first budget
    of a quest is that of the seat before the questing one (A's is D's at four seats), and
    the budgets after it (until a strike ends the turn) those of the seats before that."""
    m = table(4)
    names = [d.name for d in m.decks]
    seen = 0
    for match in range(10):
        lines = get("encounter").replay(m, 5, match).text
        for i, line in enumerate(lines):
            q = re.match(r"quest: (\S+) plays .*; (\S+)'s strike budget \d+$", line)
            if not q or "is killed" in "\n".join(lines[:i]):
                continue
            active, first = names.index(q[1]), names.index(q[2])
            assert first == (active - 1) % 4, line
            rest = []
            for later in lines[i + 1:]:
                b = re.match(r"quest: (\S+)'s strike budget against", later)
                if not b:
                    if later.startswith("quest: ") or later.startswith("-- turn"):
                        break
                    continue
                rest.append(names.index(b[1]))
            assert rest == [(active - 2 - k) % 4 for k in range(len(rest))], line
            seen += 1
    assert seen > 0


def test_a_manifest_written_before_max_rounds_and_the_newer_habits_plays_as_it_did():
    """A run made before these settings recorded max_turns = 60 and policy vectors that
    end before cycle_quests: rebuilt from its manifest it caps all the players' turns at 60,
    never sends a quest to make room, counts an in-play Might for nothing and plans one use
    of an ability at a time, whatever today's defaults say (a table of four: the cap of
    turns cuts it at 15 rounds, before max_rounds' 30)."""
    from sim.encounter.params import M_CYCLE

    m = table(4, "careful")
    old = GAME.describe(m)
    old["rules"] = {k: v for k, v in old["rules"].items() if k != "max_rounds"}
    old["rules"]["max_turns"] = 60
    for p in old["policies"]:
        p["params"] = p["params"][:M_CYCLE]
    back = GAME.from_manifest(old)
    assert back.rules.values["max_turns"] == 60
    assert not any(v[M_CYCLE:].any() for v in back.policies)
    rec = GAME.run_batch(back, 40, 2)
    assert (rec.column("turns") <= 60).all()
    then = [v.copy() for v in m.policies]
    for v in then:
        v[M_CYCLE:] = 0
    want = GAME.run_batch(dataclasses.replace(with_rules(m, {"max_turns": 60}),
                                              policies=tuple(then)), 40, 2)
    assert rec.same_as(want)
