"""The game contract: what a game package declares so that the runner, the store, the
experiments, the command line and the analysis run it without knowing its words."""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sim.core.problems import InputError, Problem
from sim.kit.power import Power, pool_frame
from sim.kit.records import DEFAULT_SEATS, Layout
from sim.kit.variants import Building, Sweep, Variant

# Card statistics every game records first, in this order; a game appends its own.
CARD_STATS_COMMON = {
    "matches_in_deck": "matches with the card in the seat's deck",
    "matches_drawn": "of those, matches in which it was drawn (opening hand or later)",
    "wins_drawn": "matches won when drawn",
    "wins_not_drawn": "matches won when in the deck but not drawn",
}


def end_meaning(reasons: tuple[str, ...]) -> str:
    """The meaning of a matches table's end column: each code with its reason."""
    return "how the match ended: " + ", ".join(f"{i} {r}" for i, r in enumerate(reasons))


@dataclass(frozen=True)
class Rate:
    """A headline rate: sum(k) / sum(n) over the matches table, where k and n are
    pandas `DataFrame.eval` expressions of its columns (n empty: one per match). Labels
    may name the decks as {a}, {b}, {c} ... by seat."""

    label: str
    k: str
    n: str = ""


@dataclass(frozen=True)
class Histogram:
    """Per-match counts [match, seat, value] of a measure (for example the points each round
    scored, by the seat that scored them). Analysis draws P(value >= k) per seat with bands;
    `labels` names the bins on the x axis (a rule can fix them per run: `describe` may put
    concrete labels under manifest["histogram_labels"][measure])."""

    label: str  # what one count is, e.g. "points scored in a round"
    seat: str  # whose count it is, e.g. "scorer"
    bins: int = 32  # the last bin counts "this value or more"
    axis: str = ""  # x-axis label; the measure's label when empty
    # Per seat, a pandas expression of the match columns: the value at which that seat's
    # count was cut short before it ended (censored, for Kaplan-Meier), -1 for none.
    censored: tuple[str, ...] = ()
    # What the survival curve's share is of, after "share of": who is still counted at a
    # value, e.g. "PCs alive at this turn" (the y axis; empty in manifests written before).
    subject: str = ""


@dataclass(frozen=True)
class Schema:
    """What a batch of a game writes, with meanings; analysis reads it from the manifest.

    The matches table always starts with `winner` (the winning seat: 0 deck A, 1 deck B,
    2 deck C ...; -1 a draw). A game with a rule for the number of players gives each
    matchup's schema from its `schema_for`, with `seats` players."""

    match_columns: dict[str, str]
    first_player: str  # column with the seat that started the match (-1: no one did)
    # e.g. "first server"; empty: the column's name in words (first_server -> first server)
    first_player_label: str = ""
    end_column: str = "end"  # column with how the match ended, as codes into end_reasons
    end_reasons: tuple[str, ...] = ()
    # column -> label of a per-match length measure, e.g. "points" -> "points per match"
    lengths: dict[str, str] = dataclasses.field(default_factory=dict)
    histograms: dict[str, Histogram] = dataclasses.field(default_factory=dict)
    card_stats: dict[str, str] = dataclasses.field(default_factory=dict)  # after CARD_STATS_COMMON
    use_success: tuple[str, str] = ("", "")  # e.g. ("hit", "landed")
    flag_kinds: tuple[str, ...] = ()  # card kinds that get balance verdicts
    rates: tuple[Rate, ...] = ()  # game-specific headline rates
    sections: tuple[tuple[str, str, tuple[Rate, ...]], ...] = ()  # (title, note, rates)
    log_columns: dict[str, str] = dataclasses.field(default_factory=dict)
    log_rows: int = 2048
    worth_label: str = ""  # sensitivity's extra column when the game prices cards exactly
    # A pandas expression of the card statistics that counts a card played or used (e.g.
    # "played + hit"); a card of a flagged kind that scores 0 is dead. "": not declared.
    played: str = ""
    seats: int = DEFAULT_SEATS  # players at the table

    def __post_init__(self):
        if not self.first_player_label:
            object.__setattr__(self, "first_player_label", self.first_player.replace("_", " "))

    @property
    def all_card_stats(self) -> dict[str, str]:
        return {**CARD_STATS_COMMON, **self.card_stats}

    @property
    def layout(self):
        """The shape of a batch's arrays as plain names, what sim.kit.records allocates."""
        return Layout(tuple(self.match_columns),
                      {name: h.bins for name, h in self.histograms.items()},
                      tuple(self.all_card_stats), tuple(self.log_columns), self.log_rows,
                      self.seats)

    def to_json(self) -> dict:
        out = asdict(self)
        out["end_reasons"] = list(self.end_reasons)
        return out

    @classmethod
    def from_json(cls, data: dict) -> Schema:
        d = dict(data)
        d["histograms"] = {k: Histogram(**{**v, "censored": tuple(v.get("censored", ()))})
                           for k, v in d.get("histograms", {}).items()}
        d["rates"] = tuple(Rate(**r) for r in d.get("rates", ()))
        d["sections"] = tuple((t, n, tuple(Rate(**r) for r in rs))
                              for t, n, rs in d.get("sections", ()))
        d["end_reasons"] = tuple(d.get("end_reasons", ()))
        d["use_success"] = tuple(d.get("use_success", ("", "")))
        d["flag_kinds"] = tuple(d.get("flag_kinds", ()))
        return cls(**d)


@dataclass(frozen=True)
class Param:
    """One numeric parameter of a policy that training may change: its value in the
    policies file, its bounds, and whether it is a float, an int or a bool."""

    name: str
    value: float
    lo: float
    hi: float
    kind: str = "float"  # "float", "int" or "bool"


def pool_value(m, what: str) -> int:
    """The value of a numeric "CARD.FIELD" in the matchup's card table (Tuning.card_value
    unless a game derives a field of its own) (sim.kit.cards.CardTable.value_of)."""
    return m.pool.value_of(what)


@dataclass(frozen=True)
class Tuning:
    """The optional hooks behind `cardlab tune`, `train` and `skill`.

    - params(folder, policy) -> [Param]: the numeric weights and habits of a policy in the
      folder's policies.toml that training may change, with bounds (InputError when the
      policy is unknown).
    - with_policy(matchup, seat, folder, policy, values: {name: value}, name) -> matchup:
      the seat plays that policy with `values` in place of its parameters, under `name`.
    - card_value(matchup, "CARD.FIELD") -> int | float: the field's value in the matchup
      (an int field is tuned over whole numbers); InputError when unknown; default: the
      card table's column (`pool_value`).
    - csv_cells(matchup, "CARD.FIELD", value) -> {column: text}, optional: the cells of the
      card's cards.csv row that write the value, where the field is not a column of its own
      (a number the game derives from other columns); by default the column FIELD.
    """

    params: Callable[..., list[Param]]
    with_policy: Callable[..., Any]
    card_value: Callable[..., float] = pool_value
    csv_cells: Callable[..., dict[str, str]] | None = None


@dataclass(frozen=True)
class Dominance:
    """How `cardlab lint` ranks two cards of one kind: a card is dominated by another whose
    `same` fields are equal, whose costs are no higher (lower is better) and whose benefits
    are no lower (higher is better). Field names are columns of Lint.cards."""

    costs: tuple[str, ...] = ()
    benefits: tuple[str, ...] = ()
    same: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lint:
    """The optional hooks behind `cardlab lint`.

    - dominance: which fields of the card table are costs, benefits, or must be equal.
    - rule_variants(matchup) -> [dict], optional: every rule option's alternative values, one
      changed option a dict (e.g. {"strikers_after": "hand"}); default: the declared
      options' neighbours (`Options.variants`).
    - cards(matchup) -> DataFrame, optional: the pool, one row per card: id, name, kind and
      every field `dominance` names, as numbers (words as codes); default: the card table's
      columns by name (`CardTable.frame`).
    - edits(matchup) -> [Variant], optional: the card edits tried for inert fields when
      value_edits leaves out fields a designer wants linted (default: value_edits).
    """

    dominance: Dominance
    rule_variants: Callable[[Any], list[dict]] | None = None
    cards: Callable[[Any], Any] = pool_frame
    edits: Callable[[Any], list[Variant]] | None = None


@dataclass(frozen=True)
class Game:
    """One registered game. Every callable takes and returns the game's own matchup type, a
    subclass of sim.kit.matchups.Matchup (pool, rules, and a deck and a policy a seat).

    - load_matchup(folder, deck_a, deck_b, policy_a, policy_b, rules: dict, sets: list of
      "CARD.FIELD=VALUE") -> matchup; raises sim.core.problems.InputError.
    - run_batch(matchup, n, seed, first_match=0, n_log=0) -> sim.kit.records.BatchRecords, the
      compiled kernel; reference_batch, the same records from the plain-Python engine.
    - replay(matchup, seed, match_index) -> sim.kit.records.Replay, or any object with
      .text (lines) and .record (the match's row of the matches table).
    - describe(matchup) -> JSON-able dict for the manifest with at least "decks" (list of
      {"name": ...}), "policies" (list of {"name": ...}), "rules" (dict) and "card_pool"
      ({"ids", "names", "kinds", "sha256"}), and optionally "starting" (per seat, the ids
      of cards in play from the start, never played from a hand: never judged dead);
      from_manifest(manifest) -> the same matchup.
    - check_paths(paths) -> (notes, problems): the validator.
    - with_rules(matchup, changes: dict) -> matchup; InputError on a bad option.
    - value_edits(matchup, cards: list[str] | None) -> [Variant]: +1 on each numeric card
      value (sensitivity); ablations(matchup) -> [Variant]: each card taken out (ablation);
      sweeps: {name: Sweep}.
    - worth(matchup, seat, card_id) -> float, optional: an exact price of a card.
    - validate(matchup) -> [sim.core.problems.Problem]: the validator's word on a matchup built
      in memory (an experiment's variant): the problems of its decks and card table under
      its rules, the checks `cardlab check` applies to files; [] when legal. Experiments
      simulate no variant with a problem.
    - exact_check(matchup, totals: sim.kit.records.Totals) -> DataFrame | None, optional: Monte
      Carlo beside the exact answer when the setting is covered (sim.kit.checks.CheckTable:
      quantity, seat, exact, estimate, se, z, n, flag, and measure/value where a row is
      P(histogram value >= value)); None when the setting is not covered.
    - tuning: Tuning, optional: policy parameters and card values for `cardlab tune`
      (its default value range), `cardlab train` and trained policies in `cardlab skill`.
    - lint: Lint, optional: rule variants, the card table and its dominance declaration for
      `cardlab lint` (without it, lint tries value_edits and reports dead cards only).
    - building: Building, optional: decks as card counts for `cardlab deckbuild`.
    - power: Power, optional: the card numbers that carry power, for par, causal verdicts
      and `cardlab calibrate` (every matchup has `pool`, a sim.kit.cards.CardTable).
    - schema_for(matchup) -> Schema, optional: the schema of a matchup whose rules change
      what a batch writes (the number of players); `schema` otherwise.
    - seats: (fewest, most) players at a table (OpenSpiel's min and max players); a game
      seating more than two takes the decks of seats C, D ... as `table=` in load_matchup.
    - options: sim.kit.options.Options, the declared rule options (one parser for
      rules.toml, --rules, the manifest and the docs table).
    - compile_seconds: what a first compile of the engine takes on a 2-core machine, said
      while it compiles until this machine has timed one (sim/runner/warmup.py).
    A game module declares these under their names and builds its Game with `collect`.
    A game's own commands, if any, live in `sim/GAME/commands.py` as `mount(app)`, read
    without importing the game. The compiled code of a game lives in its own package,
    whose sources key its cache.
    """

    name: str
    title: str
    schema: Schema
    load_matchup: Callable[..., Any]
    run_batch: Callable[..., Any]
    reference_batch: Callable[..., Any]
    replay: Callable[..., Any]
    describe: Callable[[Any], dict]
    from_manifest: Callable[[dict], Any]
    check_paths: Callable[..., tuple[list[str], list[Any]]]
    with_rules: Callable[[Any, dict], Any]
    value_edits: Callable[..., list[Variant]]
    # Without its own, a game with building hooks ablates the kinds its schema flags
    # (Building.ablations).
    ablations: Callable[[Any], list[Variant]] | None = None
    sweeps: dict[str, Sweep] = dataclasses.field(default_factory=dict)
    worth: Callable[..., float] | None = None
    validate: Callable[[Any], list[Any]] | None = None
    exact_check: Callable[..., Any] | None = None
    tuning: Tuning | None = None
    lint: Lint | None = None
    building: Building | None = None
    power: Power | None = None
    schema_for: Callable[[Any], Schema] | None = None
    seats: tuple[int, int] = (DEFAULT_SEATS, DEFAULT_SEATS)
    options: Any = None
    compile_seconds: float = 60.0  # a first compile on a 2-core machine, until one is timed

    def schema_of(self, matchup) -> Schema:
        """What a batch of this matchup writes."""
        return self.schema_for(matchup) if self.schema_for else self.schema

    @classmethod
    def collect(cls, names: dict, **own) -> Game:
        """The Game of a game module from its names (`globals()`): each part under its
        field's name (`run_batch`), a table under it in capitals (`SCHEMA`, `SWEEPS`),
        describe and from_manifest from its MANIFEST (sim.kit.manifests.Manifest), its name
        from its package's (sim.payne.game: payne); `own` gives the rest (title,
        compile_seconds)."""
        parts = dict(own)
        if "name" not in parts and "__name__" in names:
            parts["name"] = names["__name__"].split(".")[-2]
        if "MANIFEST" in names:
            parts |= {"describe": names["MANIFEST"].describe,
                      "from_manifest": names["MANIFEST"].from_manifest}
        for f in dataclasses.fields(cls):
            for key in (f.name, f.name.upper()):
                if f.name not in parts and key in names:
                    parts[f.name] = names[key]
        if "ablations" not in parts and "building" in parts:
            parts["ablations"] = functools.partial(parts["building"].ablations,
                                                   kinds=parts["schema"].flag_kinds)
        return cls(**parts)


@dataclass(frozen=True)
class Later:
    """A part of a game that its module `module` defines under `name`, imported at its first
    call: a reference engine or solver loads only when it plays, not with the game."""

    module: str
    name: str

    def __call__(self, *args, **kwargs):
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)


# The registry: game name -> "module:attribute" of its Game, imported on first use so that
# the command line starts without loading any engine.
REGISTRY = {
    "paintline": "sim.paintline.game:GAME",
    "payne": "sim.payne.game:GAME",
    "encounter": "sim.encounter.game:GAME",
}


# The template a new game copies (`cardlab new-game`): a whole game that the contract's
# tests play like the others, found by its name but not listed among the games.
TEMPLATES = {
    "highcard": "sim.highcard.game:GAME",
}


def names() -> list[str]:
    return list(REGISTRY)


def templates() -> list[str]:
    return list(TEMPLATES)


def known(name: str) -> bool:
    """Whether a game or the template goes by this name."""
    return name in REGISTRY or name in TEMPLATES


def get(name: str) -> Game:
    """The registered game (or template) of that name (sim.core.problems.InputError when
    unknown)."""
    if not known(name):
        raise InputError([Problem("game", 0, f"unknown game {name!r}; registered: "
                                  f"{', '.join(REGISTRY)}")])
    module, attr = (REGISTRY.get(name) or TEMPLATES[name]).split(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as err:
        # Only the game's own package missing is the registry's fault; any other missing
        # module is a real import error of the game and keeps its traceback.
        if not err.name or not module.startswith(err.name):
            raise
        raise InputError([Problem(str(SOURCE), entry_line(name),
                                  f"REGISTRY names game {name!r} as {module}:{attr}, but "
                                  f"there is no module {err.name} (its package was removed?): "
                                  "remove the line or restore the package")]) from None


SOURCE = Path(__file__)  # this file, which holds REGISTRY


def entry_line(name: str) -> int:
    """The line of this file that registers the game `name` (0 when none does)."""
    for n, line in enumerate(SOURCE.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith(f'"{name}":'):
            return n
    return 0


