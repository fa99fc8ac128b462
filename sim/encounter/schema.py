"""What an Encounter batch writes: the records schema, with the meaning of every column, for
two players (SCHEMA) and for any table (schema_for)."""

from __future__ import annotations

import dataclasses

from sim.encounter import codes as K
from sim.encounter.engine import DEATH_BINS, MATCH_COLUMNS, SEAT_LETTERS, match_columns
from sim.kit.game import Histogram, Rate, Schema

_MEANING = {
    "winner": "0 deck A, 1 deck B, -1 a draw",
    "end": "how it ended: 0 points, 1 PC killed, 2 deck-out, 3 round or turn cap, 4 PC "
           "captured",
    "first_player": "seat that took the first turn",
    "turns": "turns played, both players together",
    "rounds": "rounds begun (in a round every player still in takes one turn)",
    "points": "quest points scored",
    "quests_attempted": "quests played",
    "quests_completed": "quests completed",
    "pc_wounds": "wounds the seat's PC took",
    "party_wounds": "wounds the seat's party NPCs took",
    "strikes_faced": "combats against strikers on the seat's own quests",
    "strikers_defeated": "of those, combats its defender won",
    "pc_death_turn": "turn the seat's PC was killed, -1 when it lived (censored at turns)",
    "pc_death_round": "round the seat's PC was killed in, -1 when it lived (censored at "
                      "rounds)",
    "opening_quests": "quests in the seat's opening hand",
}


def _meaning(col: str) -> str:
    suffixes = tuple(f"_{x}" for x in SEAT_LETTERS)
    base = col[:-2] if col.endswith(suffixes) else col
    seat = f" (deck {col[-1].upper()})" if col.endswith(suffixes) else ""
    return _MEANING[base] + seat


def _censored(x: str) -> str:
    return f"rounds * (pc_death_round_{x} < 0) - (pc_death_round_{x} >= 0)"


SCHEMA = Schema(
    match_columns={c: _meaning(c) for c in MATCH_COLUMNS},
    first_player="first_player",
    end_reasons=K.END_REASONS,
    lengths={"rounds": "rounds per match", "turns": "turns per match"},
    # In rounds, not turns: a PC is at risk once a round whatever the number of seats. A PC
    # still standing when the match ends is censored at the match's last round.
    histograms={"pc_death": Histogram(
        "PC killed in round", "the PC's owner", DEATH_BINS, "round",
        censored=(_censored("a"), _censored("b")), subject="PCs alive at this round")},
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
         "the round it fell in, as a Kaplan-Meier curve censored at the match's end. A killed "
         "PC ends a match of two; at three or four seats the others play on, so \"ended by "
         "pc_killed\" counts only the matches a kill ended (the last PC standing wins), "
         "and a match with a PC killed may still end by points.",
         (Rate("PC killed ({a})", "pc_death_turn_a >= 0"),
          Rate("PC killed ({b})", "pc_death_turn_b >= 0"),
          Rate("opening hand held a quest ({a})", "opening_quests_a > 0"),
          Rate("opening hand held a quest ({b})", "opening_quests_b > 0"))),
    ),
    log_columns={"turn": "turn number", "seat": "acting seat", "event": "event code",
                 "card": "card index, -1 none", "a": "first value", "b": "second value"},
)


def schema_for(m) -> Schema:
    """The schema of a matchup: SCHEMA for two players; for more, the per-seat columns,
    rates and histogram of every seat (suffixes _a _b _c _d)."""
    seats = len(m.decks)
    if seats == 2:
        return SCHEMA
    xs = SEAT_LETTERS[:seats]
    meaning = {c: _meaning(c) for c in match_columns(seats)}
    meaning["winner"] = ", ".join(f"{p} deck {x.upper()}" for p, x in enumerate(xs)) + (
        ", -1 a draw")
    meaning["turns"] = "turns played, every player's together"
    hist = dataclasses.replace(SCHEMA.histograms["pc_death"],
                               censored=tuple(_censored(x) for x in xs))
    quests = tuple(Rate(f"quests completed per attempt ({{{x}}})", f"quests_completed_{x}",
                        f"quests_attempted_{x}") for x in xs) + tuple(
        Rate(f"strikers defeated per strike faced ({{{x}}})", f"strikers_defeated_{x}",
             f"strikes_faced_{x}") for x in xs)
    pcs = tuple(Rate(f"PC killed ({{{x}}})", f"pc_death_turn_{x} >= 0") for x in xs) + tuple(
        Rate(f"opening hand held a quest ({{{x}}})", f"opening_quests_{x} > 0") for x in xs)
    sections = ((SCHEMA.sections[0][0], SCHEMA.sections[0][1], quests),
                (SCHEMA.sections[1][0], SCHEMA.sections[1][1], pcs))
    return dataclasses.replace(SCHEMA, match_columns=meaning, histograms={"pc_death": hist},
                               sections=sections, seats=seats)
