"""Which characters a character action may attach to, from the rulebook: "Character actions
play to a character. Each action identifies which characters it may attach to." The card
column `attach`: empty (any of its player's characters), `pc` or `party`. Lucky Charm
(intelligence and dexterity +1, cost 1) attaches to the PC; Plate Armor (toughness +1,
cost 2) to a party NPC. Each state is built in both engines."""

import shutil
from pathlib import Path

import pytest

from sim.encounter import state as S

from .conftest import cardlab
from .test_encounter_decisions import POLICY_STREAM, card
from .test_encounter_scenarios import Both, boost


def played_on(b):
    """Where each engine put the character action A played: "PC" or the party NPC's name."""
    P, seat = b.P, b.g.seats[0]
    assert P[0, S.ATT_N] == len(seat.gear) == 1
    slot = int(P[0, S.ATT_ON])
    kernel = "PC" if slot < 0 else b.g.cards[int(P[0, S.PARTY + slot])].id
    bearer = seat.gear[0][1]
    reference = "PC" if bearer.is_pc else bearer.card.id
    assert kernel == reference
    return kernel


def state(gear, cards, party=(), counter=0):
    b = Both(({"gear": gear}, {}))
    b.party(0, *party)
    b.hand(0, *cards)
    b.pool(0, 3)
    b.G[S.CTR + POLICY_STREAM] = b.g.counters[POLICY_STREAM] = counter
    return b


@pytest.mark.parametrize("gear", ["pc", "random"])
@pytest.mark.rule("ENC-52")
def test_an_action_that_attaches_to_the_pc_goes_on_the_pc(gear):
    """Lucky Charm names the PC: with an Orc Grunt in the party it goes on the PC, whatever
    the random gear choice draws (16 positions of the policy stream)."""
    for counter in range(16 if gear == "random" else 1):
        b = state(gear, ["Lucky Charm"], ["Orc Grunt"], counter)
        boost(b)
        assert played_on(b) == "PC"


@pytest.mark.parametrize("gear", ["pc", "random"])
@pytest.mark.rule("ENC-52", "ENC-103")
def test_an_action_that_attaches_to_a_party_npc_never_goes_on_the_pc(gear):
    """Plate Armor names a party NPC: careful, whose habit is the PC, puts it on the first
    party NPC instead; random draws among the party NPCs only (both Grunts are drawn over
    16 positions, the PC never)."""
    seen = set()
    for counter in range(16 if gear == "random" else 1):
        b = state(gear, ["Plate Armor"], ["Orc Grunt", "Mercenary"], counter)
        boost(b)
        seen.add(played_on(b))
    want = {card("Orc Grunt"), card("Mercenary")} if gear == "random" else {card("Orc Grunt")}
    assert seen == want


@pytest.mark.rule("ENC-52")
def test_without_a_character_it_may_attach_to_it_stays_in_hand():
    """No party NPC: Plate Armor has no character to attach to, so it is not played, its
    cost unpaid (careful plays it as soon as a party NPC is there: its toughness is worth
    more than 0)."""
    b = state("pc", ["Plate Armor"])
    boost(b)
    hand, _, _, pool = b.same(0)
    assert hand == ["Plate Armor"] and pool == 3


def test_only_a_character_action_names_where_it_attaches(tmp_path):
    """`attach` on any other card is refused by the validator, naming the file, line and
    card, exit 2."""
    folder = tmp_path / "enc"
    shutil.copytree(Path(__file__).resolve().parents[1] / "decks" / "encounter", folder)
    path = folder / "cards.csv"
    lines = path.read_text().splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("orc-grunt,"))
    cells = lines[i].split(",")
    header = lines[0].split(",")
    cells[header.index("attach")] = "pc"
    lines[i] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n")
    out = cardlab("check", str(folder))
    assert out.returncode == 2
    assert f"cards.csv:{i + 1}" in out.stdout + out.stderr
    assert "'orc-grunt'" in out.stderr and "attach" in out.stderr


@pytest.mark.parametrize("pair", ["careful", "random"])
@pytest.mark.rule("ENC-52")
def test_the_engines_agree_and_attach_changes_the_records(pair):
    """Orc Ambush with Plate Armor for its Sharp Blade and Lucky Charm for a Rome Arena,
    against Grey Expedition: both engines play the same matches, both cards are played,
    and with their `attach` cleared (any character) the records differ."""
    from sim.encounter import codes as K

    from .encounter_swap import agree_and_matter, swapped

    m = swapped("orc-ambush", "grey-expedition", pair, 0,
                {"sharp-blade": -1, "rome-arena": -1, "plate-armor": 1, "lucky-charm": 1})
    rec = agree_and_matter(m, "plate-armor", {K.C_ATTACH: 0}, 80)
    for cid in ("lucky-charm", "plate-armor"):
        assert rec.card_stats[0, m.pool.ids.index(cid), S.ST_PLAYED] > 0, cid
