"""Payne's policy parameter vector: its slots, the choices a policy names in policies.toml,
the defaults by kind, and the reader that checks the file."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from sim.problems import InputError, Problem, suggest

KIND, PLAY_RATE, LIE_RATE, REVEAL_ANSWER, EFFECT_ORDER = 0, 1, 2, 3, 4
N_PARAMS = 5
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
# Numeric fields: (slot, default); choice fields: (slot, their words).
FIELDS = {"kind": None, "play_rate": (PLAY_RATE, 0.5), "lie_rate": (LIE_RATE, 0.5)}
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
    vec[PLAY_RATE], vec[LIE_RATE] = 0.5, 0.5
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


def _lines(text: str) -> dict[str, int]:
    lines: dict[str, int] = {}
    section = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0].strip()
        if head.startswith("["):
            section = head.strip("[] ")
            lines[section] = i
        elif "=" in head:
            lines.setdefault(f"{section}.{head.split('=', 1)[0].strip()}", i)
    return lines


def load_policies(path: Path | str) -> dict[str, np.ndarray]:
    """policies.toml -> {name: parameter vector}; problems name file and line."""
    path = Path(path)
    where = str(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise InputError([Problem(where, 0, "file not found")]) from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise InputError([Problem(where, getattr(err, "lineno", 0) or 0,
                                  f"cannot read: {err}")]) from None
    lines = _lines(text)
    problems, out = [], {}
    known = {**FIELDS, **CHOICE_FIELDS}
    for name, table in data.items():
        line = lines.get(name, 0)
        if not isinstance(table, dict):
            problems.append(Problem(where, line, f"policy {name!r} must be a table"))
            continue
        kind = table.get("kind")
        if kind not in KINDS:
            problems.append(Problem(where, lines.get(f"{name}.kind", line),
                                    f"policy {name!r}: "
                                    + (f"kind must be one of {', '.join(KINDS)}, got {kind!r}"
                                       if "kind" in table else
                                       f"needs kind = one of {', '.join(KINDS)}")))
            kind = KINDS[0]
        vec = defaults(KINDS.index(kind))
        for key, value in table.items():
            at = lines.get(f"{name}.{key}", line)
            if key not in known:
                problems.append(Problem(where, at, f"policy {name!r}: unknown field {key!r}"
                                        f"{suggest(key, known)}"))
            elif key in CHOICE_FIELDS:
                slot, words = CHOICE_FIELDS[key]
                if value not in words:
                    problems.append(Problem(where, at, f"policy {name!r}: {key} must be one "
                                            f"of {', '.join(words)}, got {value!r}"))
                else:
                    vec[slot] = words.index(value)
            elif key != "kind":
                if isinstance(value, bool) or not isinstance(value, int | float) \
                        or not 0 <= value <= 1:
                    problems.append(Problem(where, at, f"policy {name!r}: {key} must be a "
                                            f"number in 0..1, got {value!r}"))
                else:
                    vec[FIELDS[key][0]] = float(value)
        out[name] = vec
    if problems:
        raise InputError(problems)
    return out
