"""Payne's policy parameter vector: its slots, the choices a policy names in policies.toml,
the defaults by kind, and the reader that checks the file."""

from __future__ import annotations

from sim.kit.policy_vectors import Settings

KIND, PLAY_RATE, LIE_RATE, REVEAL_ANSWER, EFFECT_ORDER = 0, 1, 2, 3, 4
# prior's weights and habits (slots 5..): what each effect is worth, the bar a card must
# clear, what it keeps in hand, when it spends a card on the battle at hand, how it fields.
VALUE_ARROW, VALUE_REVEAL, VALUE_AUTOWIN, VALUE_BAN, VALUE_LIE, PLAY_ABOVE = 5, 6, 7, 8, 9, 10
KEEP_ROLE, AUTOWIN_BELOW, CHANGE_BELOW, HOLD_REVEALS = 11, 12, 13, 14
FIELD_POWER_OFF, FIELD_POWER_DEF, FIELD_BREADTH = 15, 16, 17
N_PARAMS = 18
KINDS = ("random", "plain", "prior")
RANDOM, PLAIN, PRIOR = 0, 1, 2
# reveal_answer: how the answerer orders his sides for a Reveal (the truthful answer is the
# first in the asked state): at random, or "guarded" (least use to the asker first).
REVEAL_ANSWERS = ("random", "guarded")
ANSWER_RANDOM, ANSWER_GUARDED = 0, 1
# effect_order: which of a card's two effects its player applies first: a coin, the print
# order, or a Reveal before the other effect.
EFFECT_ORDERS = ("random", "print", "reveal_first")
ORDER_RANDOM, ORDER_PRINT, ORDER_REVEAL_FIRST = 0, 1, 2
# Numeric fields: name -> (slot, default, lo, hi, type). The defaults are the rules each
# kind played by before they were named, so a policy naming none plays as it always did.
FIELDS = {
    "play_rate": (PLAY_RATE, 0.5, 0.0, 1.0, "float"),
    "lie_rate": (LIE_RATE, 0.5, 0.0, 1.0, "float"),
    "value_arrow": (VALUE_ARROW, 1.0, -1.0, 3.0, "float"),
    "value_reveal": (VALUE_REVEAL, 1.0, -1.0, 3.0, "float"),
    "value_autowin": (VALUE_AUTOWIN, 10.0, 0.0, 20.0, "float"),
    "value_ban": (VALUE_BAN, 1.0, -3.0, 3.0, "float"),
    "value_lie": (VALUE_LIE, 1.0, -3.0, 3.0, "float"),
    "play_above": (PLAY_ABOVE, 0.0, -3.0, 3.0, "float"),
    "keep_role": (KEEP_ROLE, 2, 1, 5, "int"),
    "autowin_below": (AUTOWIN_BELOW, 1.0, 0.0, 1.0, "float"),
    "change_below": (CHANGE_BELOW, 1.0, 0.0, 1.0, "float"),
    "hold_reveals": (HOLD_REVEALS, True, False, True, "bool"),
    "field_power_off": (FIELD_POWER_OFF, 0.0, 0.0, 0.2, "float"),
    "field_power_def": (FIELD_POWER_DEF, 0.0, 0.0, 5.0, "float"),
    "field_breadth": (FIELD_BREADTH, 0.0, -0.5, 0.5, "float"),
}
# Which kind reads which numeric fields (plain reads none).
READ_BY = {RANDOM: ("play_rate", "lie_rate"), PLAIN: (),
           PRIOR: ("value_arrow", "value_reveal", "value_autowin", "value_ban", "value_lie",
                   "play_above", "keep_role", "autowin_below", "change_below",
                   "hold_reveals", "field_power_off", "field_power_def", "field_breadth")}
CHOICE_FIELDS = {"reveal_answer": (REVEAL_ANSWER, REVEAL_ANSWERS),
                 "effect_order": (EFFECT_ORDER, EFFECT_ORDERS)}
# A policy that names no choice takes its kind's stated rule.
KIND_DEFAULTS = {RANDOM: {"reveal_answer": "random", "effect_order": "random"},
                 PLAIN: {"reveal_answer": "random", "effect_order": "print"},
                 PRIOR: {"reveal_answer": "guarded", "effect_order": "reveal_first"}}


SETTINGS = Settings(KINDS, N_PARAMS, FIELDS, READ_BY, CHOICE_FIELDS, KIND_DEFAULTS)
defaults = SETTINGS.defaults  # a kind's vector naming nothing else
complete = SETTINGS.complete  # a vector written before the later slots existed, completed
load_policies = SETTINGS.load  # policies.toml -> {name: vector}; problems name file and line
