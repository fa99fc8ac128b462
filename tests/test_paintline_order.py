"""Paint the Line: the order of the actions before the hit is the policy's. Scenarios from
the rule text ("each at most once, in the order the policy chooses, all before the hit"),
through the kernel's turn and the reference's, and the `order` setting's validation."""

from __future__ import annotations

import dataclasses
import shutil

import numpy as np
import pytest

from sim.core.problems import InputError
from sim.core.rng import N_STREAMS, py_stream_key
from sim.kit.game import get
from sim.kit.records import read_only
from sim.paintline import engine as E
from sim.paintline import order as Ord
from sim.paintline import policy as Pol
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import state as S
from sim.paintline.reference import ReferenceGame
from sim.paintline.reference_turn import InPlay

from .conftest import FOLDER, cardlab

GAME = get("paintline")
BASE = GAME.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy", {}, [])
TABLE = BASE.pool.table
GREEDY = Pol.load_policies(FOLDER / "policies.toml")["greedy"]
# A coach card in a hand or the bag does nothing: no rule plays it, its worth is 10.
FILLER = BASE.pool.lookup("Tycho Brahe")
CHOP, DRIVE, STAMINA, COUNTER = (BASE.pool.lookup(n) for n in ("Chop", "Drive Shot",
                                                                 "Stamina", "Counter Drive"))


def policy(order: str, **habits) -> np.ndarray:
    prm = GREEDY.copy()
    prm[Pol.ORDER] = Ord.parse_order(order)
    for key, value in habits.items():
        prm[Pol.FIELDS[key][0]] = value
    return prm


def kernel_turn(prm, hand, play=(), taps=(), stamina=0):
    """One turn of seat 0 on the serve, its bag all filler; what the turn left."""
    P, G, H = S.new_state()
    for p in range(2):
        P[p, S.COACH] = -1
        P[p, S.BAG:S.BAG + 20] = FILLER
        P[p, S.BAG_LEN] = 20
    Ru.reset_after_point(P, G)
    G[S.FORFEIT] = -1
    P[0, S.HAND:S.HAND + len(hand)] = hand
    P[0, S.HAND_N] = len(hand)
    for i, (c, t) in enumerate(zip(play, taps, strict=True)):
        P[0, S.PLAY + i], P[0, S.TAP + i], P[0, S.ATT + i] = c, t, -1
    P[0, S.PLAY_N] = len(play)
    P[0, S.PP:S.PP + stamina] = STAMINA
    P[0, S.PP_N] = P[0, S.PP_READY] = stamina
    keys = np.array([py_stream_key(1, 0, s) for s in range(N_STREAMS)], dtype=np.uint64)
    ctr = np.zeros(N_STREAMS, dtype=np.int64)
    n = TABLE.shape[0]
    log = np.zeros((1, 8, Rec.N_LOG), dtype=np.int32)
    log_n = np.zeros(1, dtype=np.int64)
    # read-only, as run_batch passes them: one compiled signature, not one per caller
    table, vector, prm = (read_only(a) for a in (TABLE, BASE.rules.vector, prm))
    E.take_turn(table, table, vector, prm, P, G, H, 0, keys, ctr,
                np.zeros((2, n), dtype=np.int8),
                np.zeros((2, n, len(Rec.CARD_STATS)), dtype=np.int64), E.new_work(n), log,
                log_n, 0)
    return {"hit": int(log[0, 0, Rec.L_CARD]),
            "hand": sorted(int(c) for c in P[0, S.HAND:S.HAND + P[0, S.HAND_N]]),
            "play": sorted(zip(P[0, S.PLAY:S.PLAY + P[0, S.PLAY_N]].tolist(),
                               P[0, S.TAP:S.TAP + P[0, S.PLAY_N]].tolist(), strict=True)),
            "discards": int(P[0, S.DISC_N]), "stamina": int(P[0, S.PP_N]),
            "ready": int(P[0, S.PP_READY])}


def reference_turn(prm, hand, play=(), taps=(), stamina=0):
    """The same turn in the reference engine."""
    g = ReferenceGame(dataclasses.replace(BASE, policies=(prm, prm)), 1, 0)
    g.game_no = g.point_no = g.turns = g.shots = 0
    for s in g.seats:
        s.bag = [FILLER] * 20
    g.reset_after_point()
    s = g.seats[0]
    s.hand = list(hand)
    s.table = [InPlay(c, t) for c, t in zip(play, taps, strict=True)]
    s.power_plant = [STAMINA] * stamina
    g.take_turn(0)
    return {"hit": g.shot_rows[0][4], "hand": sorted(s.hand),
            "play": sorted((t.card, t.tap) for t in s.table), "discards": len(s.discard),
            "stamina": len(s.power_plant), "ready": s.ready_stamina}


ENGINES = pytest.mark.parametrize("turn", [kernel_turn, reference_turn],
                                  ids=["kernel", "reference"])


@pytest.mark.rule("PTL-47")
@ENGINES
def test_recycle_before_or_after_playing_a_card(turn):
    """Hand: Chop and three fillers, one Stamina ready; the turn's draw brings a fourth
    filler. The policy recycles while the hand holds more than 1 card, k = (hand - 1) // 2
    draws for 2k discards of its lowest-worth cards (fillers, 10, below Chop and Stamina).
    Recycle first: 5 cards, k = 2, four fillers go, two are drawn, then Chop is played and
    hit: 2 cards left. Play first: Chop is played and hit, 4 cards, k = 1, two fillers go,
    one is drawn: 3 cards left."""
    kw = {"recycle_above": 1, "bag_reserve": 0}
    hand = [CHOP, FILLER, FILLER, FILLER]
    first = turn(policy("untap recycle stamina play", **kw), hand, stamina=1)
    assert first["hit"] == CHOP and first["hand"] == [FILLER] * 2 and first["discards"] == 4
    later = turn(policy("untap stamina play recycle", **kw), hand, stamina=1)
    assert later["hit"] == CHOP and later["hand"] == [FILLER] * 3 and later["discards"] == 2
    assert later["play"] == [(CHOP, 2)] and later["ready"] == 0


@pytest.mark.rule("PTL-47")
@ENGINES
def test_stamina_before_or_after_playing_a_card(turn):
    """Cards are played paying their cost in stamina: with no Stamina in play, a Stamina put
    into play first pays for Chop (cost 1); put in after the cards, it pays for nothing and
    the Default Shot is hit, Chop staying in hand."""
    first = turn(policy("stamina play untap recycle"), [CHOP, STAMINA])
    assert first["hit"] == CHOP and first["stamina"] == 1 and first["ready"] == 0
    later = turn(policy("play stamina untap recycle"), [CHOP, STAMINA])
    assert later["hit"] == -1 and later["hand"] == sorted([CHOP, FILLER])
    assert later["stamina"] == 1 and later["ready"] == 1


@pytest.mark.rule("PTL-47")
@ENGINES
def test_untap_before_or_after_playing_cards(turn):
    """Only a ready Arsenal card can be hit: a single-tapped Drive Shot untapped first is hit
    (and double-tapped); untapped after the cards are played, it is ready but not hit."""
    first = turn(policy("untap play stamina recycle"), [], [DRIVE], [1], stamina=1)
    assert first["hit"] == DRIVE and first["play"] == [(DRIVE, 2)] and first["ready"] == 0
    later = turn(policy("play untap stamina recycle"), [], [DRIVE], [1], stamina=1)
    assert later["hit"] == -1 and later["play"] == [(DRIVE, 0)] and later["ready"] == 1


@ENGINES
def test_a_recycle_after_play_keeps_the_card_to_be_hit_and_its_stamina(turn):
    """Chop (worth 10 + 5 of values, + its cost 1 in play) in the Arsenal, one Stamina, two
    Counter Drives (worth 19, cost 2) in hand. The policy plans to hit Chop (the one card
    it can pay for), then recycles (more than 0 cards in hand, k = 3 // 2 = 1) its two
    lowest-worth units: the drawn filler (10) and, Chop being kept for the hit and the
    Stamina for its cost, a Counter Drive, not Chop (16). With no Stamina wanted
    (stamina_cap 0: a Stamina in play is worth -1) the paying Stamina still stays."""
    hand = [COUNTER, COUNTER]
    for cap in (8, 0):
        prm = policy("play untap stamina recycle", recycle_above=0, bag_reserve=0,
                     stamina_cap=cap)
        out = turn(prm, hand, [CHOP], [0], stamina=1)
        assert out["hit"] == CHOP and out["play"] == [(CHOP, 2)]
        assert out["hand"] == sorted([COUNTER, FILLER]) and out["discards"] == 2
        assert out["stamina"] == 1 and out["ready"] == 0


def test_order_setting_parsed():
    pols = Pol.load_policies(FOLDER / "policies.toml")
    assert all(v[Pol.ORDER] == Ord.DEFAULT for k, v in pols.items() if k != "random")
    assert pols["random"][Pol.ORDER] == Ord.RANDOM_EACH_TURN
    assert Ord.order_text(Ord.DEFAULT) == "untap recycle stamina play"
    assert Ord.order_text(Ord.parse_order("Play stamina  recycle untap")) == \
        "play stamina recycle untap"


def pressure_with(tmp_path, line: str, after: int, drop: str = ""):
    """A copy of the folder whose policies.toml holds `line` `after` lines into the
    [pressure] table (and, with `drop`, none of that table's own lines of the setting):
    (folder, the file, the line's index)."""
    folder = tmp_path / "paintline"
    shutil.copytree(FOLDER, folder)
    path = folder / "policies.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("[pressure]") + after
    lines.insert(at, line)
    if drop:
        lines = [ln for i, ln in enumerate(lines) if i <= at or i > at + 3
                 or not ln.startswith(f"{drop} =")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, path, at


@pytest.mark.parametrize("bad", ['"untap recycle stamina"', '"untap untap stamina play"',
                                 '"untap recycle stamina play draw"', "3"])
def test_a_bad_order_names_file_line_and_policy(tmp_path, bad):
    folder, path, at = pressure_with(tmp_path, f"order = {bad}", 2)
    with pytest.raises(InputError) as err:
        Pol.load_policies(path)
    (problem,) = err.value.problems
    assert (problem.path, problem.line) == (str(path), at + 1)
    assert "'pressure'" in problem.message and "order" in problem.message
    out = cardlab("simulate", "--folder", str(folder), "-n", "10", "--policy", "greedy",
                  "--results", str(tmp_path / "results"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"policies.toml:{at + 1}:" in out.stderr and "pressure" in out.stderr


@pytest.mark.parametrize(("setting", "value", "words"), [
    ("stamina_cap", "-5", "stamina_cap must be a whole number in 0..20, got -5"),
    ("pen", "nan", "pen must be a number in 0..1, got nan"),
    ("pen", "inf", "pen must be a number in 0..1, got inf"),
    ("hit", "-1.0", "hit must be a number in 0..1, got -1.0"),
])
def test_a_setting_out_of_its_range_names_file_line_and_range(tmp_path, setting, value, words):
    """A number policies.toml may not hold (out of the setting's range, or not finite): the
    file, the setting's line, the policy, the setting and its range; exit 2."""
    # The table's own line of the setting is left out.
    folder, path, at = pressure_with(tmp_path, f"{setting} = {value}", 1, setting)
    with pytest.raises(InputError) as err:
        Pol.load_policies(path)
    (problem,) = err.value.problems
    assert (problem.path, problem.line) == (str(path), at + 1)
    assert problem.message == f"policy 'pressure': {words}"
    out = cardlab("check", str(folder))
    assert out.returncode == 2 and f"policies.toml:{at + 1}: policy 'pressure': {words}" \
        in out.stderr


def test_rally_mode_exact_follows_the_order():
    """Rally mode, seat A with one Drive Shot on greedy. Untapping before the hit readies it
    every second turn; choosing the hit first lets the untap come too late, so it is hit
    every third turn and seat A wins fewer points. The exact chain says so, and 50,000
    simulated games agree with it under the play-first order."""
    from sim.paintline import exact as ex
    from sim.paintline.batch import load_matchup, run_batch
    from sim.paintline.options import load_rules

    rules = load_rules(FOLDER / "rules.toml").replace(rally_mode=True)
    base = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "default", rules,
                        (["Drive Shot"], []))
    late = dataclasses.replace(base, policies=(policy("play untap stamina recycle"),
                                               base.policies[1]))
    assert ex.point_win(late) < ex.point_win(base) - 0.003
    games = 50_000
    rec = run_batch(late, games, seed=5)
    df = ex.check(ex.solve(late), rec.hists["length"].sum(axis=0),
                  rec.hists["top_step"].sum(axis=0), int((rec.matches[:, 0] == 0).sum()), games)
    assert not df.flag.any(), df[df.flag]
