"""Encounter's rule options, declared once (sim.kit.options), and the int64 vector the engine
reads from their values."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.encounter import codes as K
from sim.kit.options import Option, Options, Rules
from sim.kit.records import DEFAULT_SEATS


def _strengths(value: list) -> str:
    if 1 <= len(value) <= K.MAX_STRENGTHS and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 99 for v in value):
        return ""
    return f"1 to {K.MAX_STRENGTHS} integers 0-99"


# In the engine vector's order (codes.R_*); `players` and `strike_budget` are stored after
# the list (PLACED).
OPTIONS_DECLARED = (
    Option("points_to_win", 30, "points in the score zone that win at once", lo=1, hi=999),
    Option("hand_size", 8, "the opening hand, and the hand the draw step draws to", lo=1,
           hi=30),
    Option("mulligans", 0, "times a player may shuffle the opening hand back and draw again",
           lo=0, hi=9),
    Option("cost_currency", "pool", "what costs are paid in: a pool refilled each turn, "
           "discarded cards, or twilight added to the next strike budget",
           words=("pool", "discard", "twilight")),
    Option("pool_per_turn", 3, "the pool a player's turn starts with (cost_currency = pool)",
           lo=0, hi=99),
    Option("combat_tie", "intelligence", "equal strength in combat: the higher intelligence "
           "wins, the striker, the defender, or nobody",
           words=("intelligence", "striker", "defender", "none")),
    Option("defend_limit", "any", "how often a character may defend in one encounter",
           words=("any", "once")),
    Option("quest_mandatory", False, "whether a player with a quest in hand must play one"),
    Option("strikers_after", "discard", "where strikers go after the encounter",
           words=("discard", "hand")),
    Option("unique_scope", "table", "where a unique card may be in play once: per player "
           "or at the whole table", words=("player", "table")),
    Option("ability_limit", "unlimited", "how often an ability may be used: once a turn, "
           "once a step, or as many times as its cost is paid",
           words=("turn", "step", "unlimited")),
    Option("play_loot", "free", "whether loot is played free or for its cost",
           words=("free", "paid")),
    Option("settle_heal", 0, "wounds each of a player's characters heals at the settle step",
           lo=0, hi=99),
    Option("deck_out", "play_on", "a draw from an empty deck: play on, or lose",
           words=("play_on", "lose_on_empty_draw")),
    Option("max_turns", 0, "turns (every player's) before the match is a draw; 0: none, "
           "max_rounds caps the match (runs made before it had 60)", lo=0, hi=10000),
    Option("max_copies", 4, "copies of one card a deck may hold", lo=1, hi=60),
    Option("draw_deck_size", 40, "cards of the draw deck", lo=1, hi=60),
    Option("loot_deck_size", 20, "cards of the loot deck", lo=0, hi=60),
    Option("encounter_mode", False, "one encounter against drawn strikers, no decks (the "
           "exact check's setting)"),
    Option("encounter_strikers", 1, "encounter mode: strikers drawn", lo=0, hi=16),
    Option("encounter_strengths", [1, 2, 3, 4, 5, 6, 7, 8], "encounter mode: the strengths "
           "a striker's is drawn from, uniformly", check=_strengths),
    Option("encounter_objective", "UNHURT", "encounter mode: the quest's objective",
           words=("UNHURT", "DEFEAT")),
    Option("encounter_arg", 0, "encounter mode: the objective's argument", lo=0, hi=99),
    Option("encounter_points", 5, "encounter mode: the quest's points", lo=1, hi=999),
    Option("choose_first", "each_turn", "whether the chooser names who goes first every "
           "round or once at set-up", words=("once", "each_turn")),
    Option("players", DEFAULT_SEATS, "players at the table (the decks of seats C and D from "
           "`[table]` or `--table`)", lo=2, hi=4),
    Option("strike_budget", "shared", "at a table of three or four, the strike budget "
           "against a quest: one quest cost the opponents spend in turn (each adding its "
           "Budget), or a whole one for each opponent", words=("shared", "each")),
    Option("max_rounds", 30, "rounds (every player still in takes one turn) before the "
           "match is a draw", lo=1, hi=10000),
)
PLACED = {"players": K.R_PLAYERS, "strike_budget": K.R_STRIKE_BUDGET,
          "max_rounds": K.R_MAXROUNDS}


def rules_vector(values: dict) -> np.ndarray:
    """The int64 vector the engine reads."""
    R = np.zeros(K.N_RULES, dtype=np.int64)
    for i, o in enumerate(OPTIONS_DECLARED):
        slot = PLACED.get(o.name, i)
        v = values[o.name]
        if o.words:
            R[slot] = o.words.index(v)
        elif o.kind == "list":
            R[slot] = len(v)
            R[K.R_ESTR_LIST: K.R_ESTR_LIST + len(v)] = v
        else:
            R[slot] = int(v)
    # The encounter objective is stored as its objective code.
    R[K.R_EOBJ] = K.O_UNHURT if values["encounter_objective"] == "UNHURT" else K.O_DEFEAT
    return R


OPTIONS = Options(OPTIONS_DECLARED, rules_vector)


def load_rules(path: Path | str | None) -> Rules:
    """rules.toml -> every option (defaults for those not given)."""
    return OPTIONS.load(path)
