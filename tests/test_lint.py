"""`cardlab lint`: inert card fields and rule options, dead cards and dominated cards, with
expected values from the rules as written (docs/encounter-rules.md)."""

import json
import shutil
from pathlib import Path

import pytest

from sim.kit.options import Option, Options
from sim.solvers.lint import folder_policies, lint

from .conftest import ROOT, cardlab


def sample_pair(name: str):
    """A copy of a game folder with only its two [defaults] decks: the findings below are
    about those two decks (the field's other decks add pairings and cards of their own).
    Made at collection (the parametrized tests read its policies), removed when the run ends."""
    import atexit
    import tempfile
    import tomllib

    src = ROOT / "decks" / name
    root = Path(tempfile.mkdtemp(prefix="cardlab-lint-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    dst = root / name
    shutil.copytree(src, dst)
    keep = set(tomllib.loads((src / "game.toml").read_text())["defaults"]["decks"])
    for deck in dst.glob("*.deck"):
        if deck.stem not in keep:
            deck.unlink()
    return dst


ENCOUNTER = sample_pair("encounter")

# The strike NPCs of the two sample decks (orc-warband: Goblin, Wolf Pack, Troll, Dragon,
# Gladiator; grey-expedition: Politician, Drone) and the Damage a defender of orc-warband
# deals: Orc Berserker's own, and Vorpal Blade's and Spiked Gauntlet's on its PC.
STRIKER_TOUGHNESS = {(c, "tough") for c in ("goblin", "wolf-pack", "troll", "dragon",
                                            "gladiator", "politician", "drone")}
DEFENDER_DAMAGE = {(c, "arg1") for c in ("orc-berserker", "vorpal-blade", "spiked-gauntlet")}
STRIKER_DAMAGE = {(c, "arg1") for c in ("troll", "dragon", "gladiator")}


def inert_fields(findings) -> set:
    rows = findings[findings.finding == "inert card field"]
    return set(zip(rows.card, rows.field, strict=True))


POLICIES = folder_policies(ENCOUNTER)


@pytest.fixture(scope="module")
def discard():
    """Every policy of the folder, default rules (strikers_after = discard); a field is
    inert only when the records stay byte-identical under each of them."""
    return lint(ENCOUNTER, None, {}, 400, 1)


def test_striker_toughness_and_defender_damage_do_nothing_when_strikers_are_discarded(
        discard):
    # Combat: the loser takes 1 wound plus the winner's Damage and is killed at 0
    # toughness left, a striker "to B's discard"; "a striker fights once a turn", and at
    # the settle step surviving strikers go to B's discard too. Killed or not, a striker
    # ends the turn in the discard pile and never fights again: the wounds a defender's
    # Damage adds and the toughness they count against change nothing. The random policy
    # reads no card value; the scripted ones read the rule option and value neither (no
    # Ward on a striker, no worth for a defender's Damage), so no policy changes a record.
    assert {"random", "careful", "aggressive"} <= set(POLICIES)
    inert = inert_fields(discard.findings)
    assert STRIKER_TOUGHNESS <= inert
    assert DEFENDER_DAMAGE <= inert
    # A striker's own Damage wounds the defender, who stays in play: never inert.
    assert not STRIKER_DAMAGE & inert
    evidence = discard.findings[discard.findings.card == "goblin"].evidence.iat[0]
    assert "byte-identical" in evidence
    assert f"in {len(POLICIES)} setting(s)" in evidence
    assert all(f"{p} (orc-warband vs grey-expedition)" in evidence for p in POLICIES)


@pytest.mark.parametrize("policy", POLICIES)
def test_they_matter_when_surviving_strikers_go_back_to_hand(policy):
    # strikers_after = hand: a surviving striker returns to its owner's hand and strikes
    # again, so whether a combat kills it counts. A toughness-1 striker (Goblin, Wolf
    # Pack) dies of any lost combat and would survive a plain loss at toughness 2; Orc
    # Berserker's Damage 1 kills a toughness-2 striker of grey-expedition (Politician,
    # Drone) through a Ward 1 (Dodge) that a plain loss would not.
    res = lint(ENCOUNTER, [policy], {"strikers_after": "hand"}, 200, 1)
    inert = inert_fields(res.findings)
    assert not {("goblin", "tough"), ("wolf-pack", "tough"), ("politician", "tough"),
                ("drone", "tough"), ("orc-berserker", "arg1")} & inert


def test_encounter_mode_options_do_nothing_outside_encounter_mode(discard):
    # "Encounter mode (encounter_mode = true)": its strikers, strengths, objective,
    # argument and points are read only in that mode, which is off in rules.toml.
    rows = discard.findings[discard.findings.finding == "inert rule option"]
    assert {"encounter_strikers", "encounter_strengths", "encounter_objective",
            "encounter_arg", "encounter_points"} <= set(rows.option)
    assert not {"strikers_after", "encounter_mode", "hand_size", "combat_tie"} & set(rows.option)


@pytest.mark.parametrize("after, dead", [("discard", True), ("hand", False)])
def test_shield_up_is_dead_under_the_scripted_policies_when_strikers_are_discarded(
        after, dead):
    # Shield Up (orc-warband, Ward 2) can save a character from a lost combat. Its
    # defender: Grey's strikers are Politician and Drone (strength 5) and Hex lowers only
    # intelligence and dexterity, so the Orc PC (6 + Brawny 1) beats every one; careful and
    # aggressive defend with the weakest winner and never lose as the active player, so
    # their Ward never saves a defender. Its striker: under discard a beaten striker
    # leaves play anyway, so they never Ward one; under hand a beaten Goblin or Wolf Pack
    # (toughness 1) would die and not strike again, so they do.
    res = lint(ENCOUNTER, ["careful", "aggressive"], {"strikers_after": after}, 200, 1)
    dead_cards = res.findings[res.findings.finding == "dead card"]
    assert ("shield-up" in set(dead_cards.card)) == dead
    if dead:
        row = dead_cards[dead_cards.card == "shield-up"].iloc[0]
        assert row.decks == "orc-warband" and row.kind == "action"
        assert "careful: drawn in" in row.evidence and "aggressive: drawn in" in row.evidence
        assert row.evidence.count("played 0") == 2
    # careful counts a Heal 1 as a strength point (heal_value 1): it plays Medic.
    assert "medic" not in set(dead_cards.card)
    # The PC and its starting characteristics are in play from the start: never judged.
    assert not {"orc", "grey", "brawny", "keen-mind"} & set(dead_cards.card)


def test_random_play_leaves_shield_up_and_medic_alive(discard):
    # random is uniform over the legal options: an affordable Shield Up in a combat and an
    # affordable Medic at the boost step get played.
    dead_cards = set(discard.findings[discard.findings.finding == "dead card"].card)
    assert not {"shield-up", "medic"} & dead_cards


def test_a_dominated_card_in_a_copy_of_the_folder_is_found(tmp_path):
    folder = tmp_path / "encounter"
    shutil.copytree(ENCOUNTER, folder)
    cards = folder / "cards.csv"
    # Goblin: strike NPC, cost 1, int 0, str 4, tough 1. Runt costs more for the same;
    # Chief costs as much for more strength, so nothing of its kind dominates it.
    runt = "goblin-runt,Goblin Runt,npc,strike,0,,,2,,,0,4,1,,,,,,,,,,,,,,,,Strike NPC."
    chief = "goblin-chief,Goblin Chief,npc,strike,0,,,1,,,1,5,1,,,,,,,,,,,,,,,,Strike NPC."
    cards.write_text(cards.read_text(encoding="utf-8") + f"{runt}\n{chief}\n",
                     encoding="utf-8")
    res = lint(folder, ["careful"], {}, 20, 1)
    dom = res.findings[res.findings.finding == "dominated card"]
    runt_by = dom[dom.card == "goblin-runt"]
    assert {"goblin", "bandit", "goblin-chief"} <= set(runt_by.other_card)
    assert set(runt_by.edit) == {"dominated"}
    assert "cost 2 vs 1" in runt_by[runt_by.other_card == "goblin"].evidence.iat[0]
    assert "goblin-chief" not in set(dom.card)
    assert "goblin" in set(dom[dom.other_card == "goblin-chief"].card)


def test_option_variants():
    """Every other word, the other flag, the next whole number (the one below at the top of
    its range), no list."""
    declared = Options((Option("tie", "a", "", words=("a", "b", "c")), Option("flag", False, ""),
                        Option("n", 3, "", lo=0, hi=9), Option("top", 9, "", lo=1, hi=9),
                        Option("ladder", [1, 2], "")), lambda v: [])
    values = {"tie": "a", "flag": False, "n": 3, "top": 9, "ladder": [1, 2]}
    got = declared.variants(values)
    assert got == [{"tie": "b"}, {"tie": "c"}, {"flag": True}, {"n": 4}, {"top": 8}]


def test_cli_writes_findings_and_exits_0(tmp_path):
    out = tmp_path / "lint.json"
    res = cardlab("lint", "--folder", str(sample_pair("payne")), "-n", "30", "--policy",
                  "plain", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "lint of payne" in res.stdout and "dominated cards" in res.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["checked"]["settings"] == ["plain (offense vs defense)"]
    assert any(f["finding"] == "dominated card" for f in data["findings"])


def test_an_edit_with_no_legal_value_is_listed_as_not_tried():
    """High Card's Nine is at the highest value a number card may have (9): its +1 is
    listed among the edits not tried, with the card table's reason."""
    res = cardlab("lint", "--folder", "highcard", "-n", "20")
    assert res.returncode == 0, res.stderr
    line = next((x for x in res.stdout.splitlines() if "Nine value +1" in x), "")
    assert line.startswith("not tried") and "1 .. 9, got 10" in line, res.stdout
    # Every +1 of the shipped decks breaks the value cap (each deck sits at 100), so no card
    # edit was tried: the last line says so, rather than "0 inert card fields" alone.
    assert "0 of 9 card edits" in res.stdout.splitlines()[-1], res.stdout


@pytest.mark.parametrize("args, words", [
    (["--folder", "/no/such/folder"], "no such game folder"),
    (["--folder", "encounter", "--policy", "nope"], "unknown policy 'nope'"),
    (["--folder", "encounter", "--rules", "no_such_option=1"], "no_such_option"),
    (["--folder", "encounter", "--rules", "strikers_after=sideways"], "strikers_after"),
])
def test_bad_input_exits_2(args, words):
    res = cardlab("lint", "-n", "10", *args)
    assert res.returncode == 2, (args, res.stdout, res.stderr)
    assert "error:" in res.stderr and words in res.stderr
    assert "Traceback" not in res.stderr
