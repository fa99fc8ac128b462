"""Payne's policy parameter vector: its slots, the choices a policy names in policies.toml,
the defaults by kind, and the reader that checks the file."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.datafiles import load_policies as read_policies
from sim.core.problems import suggest

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


def defaults(kind: int) -> np.ndarray:
    """The parameter vector of a policy of this kind that names nothing else."""
    vec = np.zeros(N_PARAMS, dtype=np.float64)
    vec[KIND] = kind
    for slot, default, *_ in FIELDS.values():
        vec[slot] = float(default)
    for key, word in KIND_DEFAULTS[kind].items():
        slot, words = CHOICE_FIELDS[key]
        vec[slot] = words.index(word)
    return vec


def complete(vec) -> np.ndarray:
    """A vector written before the later slots existed, given its kind's defaults there."""
    vec = np.asarray(vec, dtype=np.float64)
    if len(vec) >= N_PARAMS:
        return vec
    out = defaults(int(vec[KIND]))
    out[: len(vec)] = vec
    return out


def number_problem(kind: str | None, key: str, value) -> str:
    """Why `value` cannot be `key` of a policy of this kind (None: not known), or ""."""
    _, _, lo, hi, typ = FIELDS[key]
    readers = [k for k in KINDS if key in READ_BY[KINDS.index(k)]]
    if kind is not None and key not in READ_BY[KINDS.index(kind)]:
        return f"{key} is read only by kind {', '.join(readers)}, not {kind}"
    if typ == "bool":
        return "" if isinstance(value, bool) else f"{key} must be true or false, got {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or (typ == "int" and not isinstance(value, int)) or not lo <= value <= hi:
        what = "a whole number" if typ == "int" else "a number"
        return f"{key} must be {what} in {lo:g}..{hi:g}, got {value!r}"
    return ""


def load_policies(path: Path | str) -> dict[str, np.ndarray]:
    """policies.toml -> {name: parameter vector}; problems name file and line."""
    return read_policies(path, policy_vector)


def policy_vector(name: str, table: dict) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """One table of policies.toml -> (parameter vector, problems as (setting, sentence))."""
    bad = []
    known = {"kind": None, **FIELDS, **CHOICE_FIELDS}
    kind = table.get("kind")
    if kind not in KINDS:
        bad.append(("kind", f"policy {name!r}: "
                    + (f"kind must be one of {', '.join(KINDS)}, got {kind!r}"
                       if "kind" in table else f"needs kind = one of {', '.join(KINDS)}")))
        kind = None
    vec = defaults(KINDS.index(kind or KINDS[0]))
    for key, value in table.items():
        if key not in known:
            bad.append((key, f"policy {name!r}: unknown field {key!r}{suggest(key, known)}"))
        elif key in CHOICE_FIELDS:
            slot, words = CHOICE_FIELDS[key]
            if value not in words:
                bad.append((key, f"policy {name!r}: {key} must be one of {', '.join(words)}, "
                                 f"got {value!r}"))
            else:
                vec[slot] = words.index(value)
        elif key != "kind":
            problem = number_problem(kind, key, value)
            if problem:
                bad.append((key, f"policy {name!r}: {problem}"))
            else:
                vec[FIELDS[key][0]] = float(value)
    return vec, bad
