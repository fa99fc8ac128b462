"""Encounter rule options: rules.toml and KEY=VALUE changes, checked, as a dict and a vector."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from sim.core.problems import InputError, Problem, suggest
from sim.encounter import codes as K


def _key_line(text: str, key: str) -> int:
    for no, line in enumerate(text.splitlines(), 1):
        if line.split("=", 1)[0].strip() == key:
            return no
    return 0


def check_value(key: str, value, where: str, line: int) -> tuple[object, list[Problem]]:
    """One option's value, converted, or the problem with it."""
    if key not in K.RULES:
        return None, [Problem(where, line, f"unknown rule option {key!r}"
                              f"{suggest(key, K.RULES)}; known: {', '.join(K.RULES)}")]
    kind, _ = K.RULES[key]
    bad = [Problem(where, line, f"rule option {key}: bad value {value!r}")]
    if isinstance(kind, tuple):
        if value not in kind:
            return None, [Problem(where, line, f"rule option {key}: {value!r} is not one of "
                                  f"{', '.join(kind)}{suggest(str(value), kind)}")]
        return value, []
    if kind is bool:
        if isinstance(value, str) and value.lower() in ("true", "false"):
            value = value.lower() == "true"
        return (value, []) if isinstance(value, bool) else (None, bad)
    if kind is list:
        if isinstance(value, str):
            try:
                value = [int(v) for v in value.strip("[]").split(",") if v.strip()]
            except ValueError:
                return None, bad
        if not (isinstance(value, list) and 1 <= len(value) <= K.MAX_STRENGTHS and all(
                isinstance(v, int) and 0 <= v <= 99 for v in value)):
            return None, [Problem(where, line, f"rule option {key}: 1 to {K.MAX_STRENGTHS} "
                                  "integers 0-99")]
        return list(value), []
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            return None, bad
    if isinstance(value, bool) or not isinstance(value, int):
        return None, bad
    lo, hi = K.INT_LIMITS[key]
    if not lo <= value <= hi:
        return None, [Problem(where, line, f"rule option {key}: {value} outside {lo}..{hi}")]
    return value, []


def load_rules(path: Path | str) -> dict:
    """rules.toml -> every option (defaults for those not given)."""
    path = Path(path)
    p = str(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as err:
        raise InputError([Problem(p, 0, f"cannot read: {err}")]) from None
    except tomllib.TOMLDecodeError as err:
        raise InputError([Problem(p, getattr(err, "lineno", 0) or 0,
                                  f"not valid TOML: {err}")]) from None
    out = {k: v for k, (_, v) in K.RULES.items()}
    problems = []
    for key, value in data.items():
        v, probs = check_value(key, value, p, _key_line(text, key))
        problems += probs
        if not probs:
            out[key] = v
    if problems:
        raise InputError(problems)
    return out


def changed(rules: dict, changes: dict, where: str = "--rules") -> dict:
    """A copy of the options with KEY=VALUE changes (values may be strings)."""
    out = dict(rules)
    problems = []
    for key, value in changes.items():
        v, probs = check_value(key, value, where, 0)
        problems += probs
        if not probs:
            out[key] = v
    if problems:
        raise InputError(problems)
    return out


def rules_vector(rules: dict) -> np.ndarray:
    """The int64 vector the engine reads."""
    R = np.zeros(K.N_RULES, dtype=np.int64)
    for i, (key, (kind, _)) in enumerate(K.RULES.items()):
        if key == "players":
            continue
        v = rules[key]
        if isinstance(kind, tuple):
            R[i] = kind.index(v)
        elif kind is list:
            R[i] = len(v)
            R[K.R_ESTR_LIST: K.R_ESTR_LIST + len(v)] = v
        else:
            R[i] = int(v)
    # The encounter objective is stored as its objective code.
    R[K.R_EOBJ] = K.O_UNHURT if rules["encounter_objective"] == "UNHURT" else K.O_DEFEAT
    R[K.R_PLAYERS] = rules.get("players", 2)  # a run made before the option: two
    return R
