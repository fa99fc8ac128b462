"""A seat's policy as its game's parameter vector (read by the game's FolderFiles.policies):
put in a matchup and given changed settings, the pieces of a game's Tuning hooks; and the
policies of a game whose kinds read declared settings, declared once (`Settings`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.core.datafiles import load_policies
from sim.core.problems import InputError, Problem, suggest
from sim.kit.game import Param, Tuning


def seat_policy(matchup, seat: int, vector, name: str):
    """The matchup with one seat playing another policy vector under another name (for a
    game's tuning hooks; every matchup has `policies` and `policy_names`)."""
    vecs, names = list(matchup.policies), list(matchup.policy_names)
    vecs[seat], names[seat] = vector, name
    return dataclasses.replace(matchup, policies=tuple(vecs), policy_names=tuple(names))


def policy_with(matchup, seat: int, vector, values: dict, store: Callable, name: str):
    """The matchup with one seat playing a policy vector with some settings changed (a
    game's Tuning.with_policy): `store(key, value)` -> (slot, the number the vector holds
    there), raising InputError for a setting the policy does not take."""
    vector = vector.copy()
    for key, value in values.items():
        slot, number = store(key, value)
        vector[slot] = number
    vector.setflags(write=False)
    return seat_policy(matchup, seat, vector, name)


def bounded(settings: dict, policy: str, per_unit: int | None = None) -> Callable:
    """`store` for policy_with over the settings training may move ({name: (slot, lo, hi,
    type)}): a value clipped to its bounds, whole for an int or a bool, a float kept as it is
    or, with `per_unit`, held as a whole number of 1/per_unit parts."""
    def store(key, value):
        if key not in settings:
            raise InputError([Problem("policy", 0, f"unknown setting {key!r} of {policy!r}; "
                                      f"one of {', '.join(settings) or '(none)'}")])
        slot, lo, hi, typ = settings[key]
        v = min(max(float(value), float(lo)), float(hi))
        if typ == "float":
            return slot, v if per_unit is None else round(v * per_unit)
        return slot, float(round(v))

    return store


def range_problem(key: str, value, lo, hi, typ: str) -> str:
    """Why `value` cannot be the setting `key` of type "float", "int" or "bool" within
    lo..hi (NaN and infinities are in no range), or ""."""
    if typ == "bool":
        return "" if isinstance(value, bool) else f"{key} must be true or false, got {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or (typ == "int" and not isinstance(value, int)) or not lo <= value <= hi:
        what = "a whole number" if typ == "int" else "a number"
        return f"{key} must be {what} in {lo:g}..{hi:g}, got {value!r}"
    return ""


@dataclass(frozen=True)
class Settings:
    """A game's policies declared once: each names a kind (`kinds`, held at slot 0 of its
    vector), which reads some numeric settings (`read_by`: kind index -> names; `numbers`:
    name -> (slot, default, lo, hi, "float" | "int" | "bool")), and word choices (`choices`:
    name -> (slot, words), each kind's default word in `kind_words`). From it: a kind's
    vector, the policies.toml reader with a sentence for every problem, a vector from a
    manifest, and the Tuning of the settings each kind reads."""

    kinds: tuple[str, ...]
    size: int
    numbers: dict[str, tuple]
    read_by: dict[int, tuple[str, ...]]
    choices: dict[str, tuple[int, tuple[str, ...]]] = dataclasses.field(default_factory=dict)
    kind_words: dict[int, dict[str, str]] = dataclasses.field(default_factory=dict)

    def defaults(self, kind: int) -> np.ndarray:
        """The vector of a policy of this kind that names nothing else."""
        vec = np.zeros(self.size, dtype=np.float64)
        vec[0] = kind
        for slot, default, *_ in self.numbers.values():
            vec[slot] = float(default)
        for key, word in self.kind_words.get(kind, {}).items():
            slot, words = self.choices[key]
            vec[slot] = words.index(word)
        return vec

    def complete(self, values) -> np.ndarray:
        """A vector from a manifest, one written before later slots existed given its kind's
        defaults there."""
        vec = np.asarray(values, dtype=np.float64)
        if len(vec) >= self.size:
            return vec
        out = self.defaults(int(vec[0]))
        out[: len(vec)] = vec
        return out

    def number_problem(self, kind: str | None, key: str, value) -> str:
        """Why `value` cannot be `key` of a policy of this kind (None: not known), or ""."""
        _, _, lo, hi, typ = self.numbers[key]
        readers = [k for i, k in enumerate(self.kinds) if key in self.read_by[i]]
        if kind is not None and key not in self.read_by[self.kinds.index(kind)]:
            return f"{key} is read only by kind {', '.join(readers)}, not {kind}"
        return range_problem(key, value, lo, hi, typ)

    def vector(self, name: str, table: dict) -> tuple[np.ndarray, list[tuple[str, str]]]:
        """One table of policies.toml -> (its vector, problems as (setting, sentence))."""
        bad = []
        known = {"kind": None, **self.numbers, **self.choices}
        kind = table.get("kind")
        if kind not in self.kinds:
            words = ", ".join(self.kinds)
            bad.append(("kind", f"policy {name!r}: " + (
                f"kind must be one of {words}, got {kind!r}" if "kind" in table
                else f"needs kind = one of {words}")))
            kind = None
        vec = self.defaults(self.kinds.index(kind or self.kinds[0]))
        for key, value in table.items():
            if key not in known:
                bad.append((key, f"policy {name!r}: unknown field {key!r}{suggest(key, known)}"))
            elif key in self.choices:
                slot, words = self.choices[key]
                if value not in words:
                    bad.append((key, f"policy {name!r}: {key} must be one of "
                                     f"{', '.join(words)}, got {value!r}"))
                else:
                    vec[slot] = words.index(value)
            elif key != "kind":
                problem = self.number_problem(kind, key, value)
                if problem:
                    bad.append((key, f"policy {name!r}: {problem}"))
                else:
                    vec[self.numbers[key][0]] = float(value)
        return vec, bad

    def load(self, path) -> dict[str, np.ndarray]:
        """policies.toml -> {name: vector}; problems name file and line."""
        return load_policies(path, self.vector)

    def trainable(self, vec) -> dict[str, tuple]:
        """The numeric settings the vector's kind reads: name -> (slot, lo, hi, type)."""
        return {k: (self.numbers[k][0], *self.numbers[k][2:]) for k in self.read_by[int(vec[0])]}

    def tuning(self, files, **hooks) -> Tuning:
        """The Tuning of these policies in a folder read by `files` (FolderFiles): each
        policy's trainable settings are what its kind reads; `hooks`: card_value and
        csv_cells where the game has its own."""
        def policy_of(folder, policy: str):
            return files.policies(folder, [policy])[0]

        def params(folder, policy: str) -> list[Param]:
            vec = policy_of(folder, policy)
            out = []
            for name, (slot, lo, hi, typ) in self.trainable(vec).items():
                v = vec[slot]
                out.append(Param(name, bool(v) if typ == "bool" else int(v) if typ == "int"
                                 else float(v), float(lo), float(hi), typ))
            return out

        def with_policy(m, seat: int, folder, policy: str, values: dict, name: str):
            vec = policy_of(folder, policy)
            return policy_with(m, seat, vec, values, bounded(self.trainable(vec), policy), name)

        return Tuning(params=params, with_policy=with_policy, **hooks)
