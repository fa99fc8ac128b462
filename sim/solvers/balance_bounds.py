"""What `cardlab balance` may do and must reach: the card fields it may change and by how
much, the band and health the field must end in, and the budget of training matches its
searches may play."""

from __future__ import annotations

from dataclasses import dataclass, replace

from analysis.health import Target, default_target
from sim.core.problems import InputError, Problem


@dataclass(frozen=True)
class Bounds:
    """What the designer allows: the card fields that may change, by at most `step` from
    the shipped value, on every card but those to `keep`; and what the field must reach:
    the band every deck's win rate against the field ends in and, with `health`, the Nash
    mix's support and effective number of decks (None: all but one deck, and that less
    one half)."""

    fields: tuple[str, ...]
    lo: float = 0.45
    hi: float = 0.55
    step: int = 2
    penalty: float = 0.005  # win rate a change of a new value must buy (sparsity)
    margin: float = 0.01  # how far inside the target the search aims on training seeds
    health: bool = True
    support: int | None = None
    diversity: float | None = None
    core: int | None = None  # the field's own decks; those after them are challengers
    keep: tuple[str, ...] = ()  # cards (ids or names) whose values never change: printed ones

    def check(self) -> None:
        if not 0 <= self.lo < self.hi <= 1:
            raise InputError([Problem("--band", 0, f"a band LO..HI inside 0 .. 1 with LO < HI, "
                                      f"got {self.lo}..{self.hi}")])
        if not self.fields:
            raise InputError([Problem("--fields", 0, "name at least one card field")])
        if self.step < 1:
            raise InputError([Problem("--max-change", 0, "at least 1")])
        if not 0 <= self.margin < 0.5:
            raise InputError([Problem("--margin", 0, f"in 0 .. 0.5, got {self.margin}")])

    def target(self, k: int) -> Target:
        """The target for a field of k decks (InputError when it asks for more than k)."""
        t = default_target(k, self.lo, self.hi, self.support, self.diversity, self.health)
        t = replace(t, core=self.core if t.health else None)
        if t.health and not 1 <= t.support <= k:
            raise InputError([Problem("--support", 0, f"1 .. {k} decks of a field of {k}, "
                                      f"got {t.support}")])
        if t.health and not 1 <= t.diversity <= k:
            raise InputError([Problem("--diversity", 0, f"1 .. {k} for a field of {k} "
                                      f"decks, got {t.diversity}")])
        return t


def parse_band(text: str) -> tuple[float, float]:
    lo, sep, hi = text.partition("..")
    try:
        return float(lo), float(hi)
    except ValueError:
        raise InputError([Problem("--band", 0, f"expects LO..HI, e.g. 0.45..0.55, got "
                                  f"{text!r}")]) from None


@dataclass
class Budget:
    """The training matches the searches may play in all (None: no limit), counted as they
    are played, so that where a search stops is the same on any machine."""

    limit: int | None = None
    spent: int = 0

    def out(self) -> bool:
        return self.limit is not None and self.spent >= self.limit
