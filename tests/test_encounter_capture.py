"""A captured PC, from the rulebook: "If your PC is killed (or captured), you lose the game."
The keyword Capture on a strike NPC: a PC it beats in combat is captured, whatever its
toughness left, and its player loses (end reason pc_captured). Slaver: strength 6,
toughness 2, strike cost 3. Each state is built in both engines."""

import shutil
from pathlib import Path

import pytest

from sim.encounter import codes as K
from sim.encounter import turn as Tu

from .conftest import cardlab
from .test_encounter_decisions import twin
from .test_encounter_scenarios import Both

FOLDER = Path(__file__).resolve().parents[1] / "decks" / "encounter"


def fight(b, who):
    """Striker 0 against the Orc's defender (-1 the PC), in both engines."""
    b.step(lambda C: twin(Tu.combat)(C, 0, who),
           lambda g: g.fight(g.strikers[0], g.seats[0].pc if who < 0 else g.seats[0].party[who]))


@pytest.mark.parametrize("striker, over", [("Slaver", (True, (1, K.END_CAPTURED))),
                                           ("Troll", (False, None))])
@pytest.mark.rule("ENC-1")
def test_a_pc_beaten_by_a_capturing_striker_is_captured_and_loses(striker, over):
    """The Orc's PC (strength 6 + Brawny 1 = 7, toughness 4 + Thick Hide 1 = 5, unwounded)
    defends; Grey plays Rally Cry (Might 2) in the combat window, so the striker's 6 + 2
    beats 7. Slaver captures the PC: the Orc loses at once, Grey wins, end pc_captured.
    Troll (Damage 1) only wounds it, 1 + 1 of its 5: the game goes on."""
    b = Both()
    b.strikers(striker)
    b.hand(1, "Rally Cry")
    b.pool(1, 3)
    fight(b, -1)
    assert b.end() == over


@pytest.mark.rule("ENC-12", "ENC-81")
def test_a_capturing_striker_that_beats_a_party_npc_only_wounds_it():
    """Capture takes only a PC: Slaver (6) beats the Orc's Orc Grunt (3, toughness 1), which
    is killed as by any striker, and the game goes on."""
    b = Both()
    b.party(0, "Orc Grunt")
    b.strikers("Slaver")
    fight(b, 0)
    _, pile, party, _ = b.same(0)
    assert party == [] and pile == ["Orc Grunt"] and b.end() == (False, None)


def test_capture_is_a_strike_npcs_keyword(tmp_path):
    """Capture on any other card is refused by the validator, naming file, line and card."""
    folder = tmp_path / "enc"
    shutil.copytree(FOLDER, folder)
    path = folder / "cards.csv"
    lines = path.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("orc-grunt,"))
    header = lines[0].split(",")
    cells = lines[i].split(",")
    cells[header.index("ability1")], cells[header.index("arg1")] = "Capture", "1"
    lines[i] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    out = cardlab("check", str(folder))
    assert out.returncode == 2
    assert f"cards.csv:{i + 1}" in out.stderr and "'orc-grunt'" in out.stderr
    assert "Capture" in out.stderr


@pytest.mark.parametrize("policy", ["careful", "random"])
def test_the_engines_agree_and_capture_changes_the_records(policy):
    """Orc Warband with two Slavers for its two Trolls, against Grey Expedition (seat A):
    both engines play the same matches, some end with Grey's PC captured, and with Capture
    taken off the Slaver the records differ."""
    from .encounter_swap import agree_and_matter, swapped

    m = swapped("grey-expedition", "orc-warband", policy, 1, {"troll": -2, "slaver": 2})
    rec = agree_and_matter(m, "slaver", {K.C_AB1: 0, K.C_ARG1: 0}, 200)
    assert (rec.column("end") == K.END_CAPTURED).sum() > 0
