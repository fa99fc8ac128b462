"""What an Encounter batch writes: the records schema, with the meaning of every column."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.engine import DEATH_BINS, MATCH_COLUMNS
from sim.game import Histogram, Rate, Schema

_MEANING = {
    "winner": "0 deck A, 1 deck B, -1 a draw",
    "end": "how it ended: 0 points, 1 PC killed, 2 deck-out, 3 turn cap",
    "first_player": "seat that took the first turn",
    "turns": "turns played, both players together",
    "points": "quest points scored",
    "quests_attempted": "quests played",
    "quests_completed": "quests completed",
    "pc_wounds": "wounds the seat's PC took",
    "party_wounds": "wounds the seat's party NPCs took",
    "strikes_faced": "combats against strikers on the seat's own quests",
    "strikers_defeated": "of those, combats its defender won",
    "pc_death_turn": "turn the seat's PC was killed, -1 when it lived (censored at turns)",
    "opening_quests": "quests in the seat's opening hand",
}


def _meaning(col: str) -> str:
    base = col[:-2] if col.endswith(("_a", "_b")) else col
    seat = {"_a": " (deck A)", "_b": " (deck B)"}.get(col[-2:], "")
    return _MEANING[base] + seat


SCHEMA = Schema(
    match_columns={c: _meaning(c) for c in MATCH_COLUMNS},
    first_player="first_player",
    first_player_label="first player",
    end_column="end",
    end_reasons=K.END_REASONS,
    lengths={"turns": "turns per match"},
    # A PC still standing when the match ends is censored at the match's last turn.
    histograms={"pc_death": Histogram(
        "PC killed in turn", "the PC's owner", DEATH_BINS, "game turn",
        censored=("turns * (pc_death_turn_a < 0) - (pc_death_turn_a >= 0)",
                  "turns * (pc_death_turn_b < 0) - (pc_death_turn_b >= 0)"),
        subject="PCs alive at this turn")},
    card_stats={"played": "copies played", "used": "uses: quest attempted, striker fought, "
                "party NPC defended, loot revealed, other card played",
                "succeeded": "successes: quest completed, striker won, defender won, loot "
                "played, other card's turn went its owner's way"},
    use_success=("used", "succeeded"),
    played="played",
    flag_kinds=("characteristic", "npc", "action", "location", "loot", "quest"),
    sections=(
        ("Quests", "Quests completed per quest attempted, by deck, with Wilson 95% intervals "
         "(the unit is the quest attempt).",
         (Rate("quests completed per attempt ({a})", "quests_completed_a",
               "quests_attempted_a"),
          Rate("quests completed per attempt ({b})", "quests_completed_b",
               "quests_attempted_b"),
          Rate("strikers defeated per strike faced ({a})", "strikers_defeated_a",
               "strikes_faced_a"),
          Rate("strikers defeated per strike faced ({b})", "strikers_defeated_b",
               "strikes_faced_b"))),
        ("PCs", "Matches in which each deck's PC was killed; the survival section above has "
         "the turn it fell, as a Kaplan-Meier curve censored at the match's end.",
         (Rate("PC killed ({a})", "pc_death_turn_a >= 0"),
          Rate("PC killed ({b})", "pc_death_turn_b >= 0"),
          Rate("opening hand held a quest ({a})", "opening_quests_a > 0"),
          Rate("opening hand held a quest ({b})", "opening_quests_b > 0"))),
    ),
    log_columns={"turn": "turn number", "seat": "acting seat", "event": "event code",
                 "card": "card index, -1 none", "a": "first value", "b": "second value"},
)
