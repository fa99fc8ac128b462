"""`cardlab lint`: what does nothing and what is dominated in a game folder. Inert card
fields and rule options (every record array byte-identical on the same seeds under every
policy), dead cards (never played by any policy) and dominated cards (no better in any
field at no lower cost than another card of the same kind)."""

from __future__ import annotations

import dataclasses
import itertools
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.usage import card_usage
from sim.core.problems import InputError
from sim.kit.folders import folder_policies, read_folder, require_policies
from sim.kit.game import Game, get

# Matches of the first pass over every setting: a change that matters nearly always shows
# within them, so only the changes still identical pay for the rest of the matches.
HEAD = 50
FINDINGS = ("inert card field", "inert rule option", "dead card", "dominated card")
COLUMNS = ["finding", "card", "name", "kind", "field", "option", "edit", "decks",
           "other_card", "other_name", "policies", "settings", "matches", "evidence"]


@dataclass(frozen=True)
class Setting:
    """One pairing of the folder's decks with both seats on one policy."""

    decks: tuple[str, str]
    policy: str
    matchup: object

    @property
    def label(self) -> str:
        return f"{self.policy} ({self.decks[0]} vs {self.decks[1]})"


@dataclass
class Arm:
    """A change tried for inertness: a card edit or one rule option's alternative."""

    edit: str  # e.g. "Medic arg1 +1" or "strikers_after=hand"
    card: str = ""
    name: str = ""
    field: str = ""
    option: str = ""
    change: dict = dataclasses.field(default_factory=dict)
    compared: list[str] = dataclasses.field(default_factory=list)  # settings compared in full
    differs: str = ""  # the first setting whose records differ
    skipped: str = ""  # why it was not played: the variant is not legal


@dataclass
class LintResult:
    """The findings (one row each, COLUMNS) and what was checked to find them."""

    findings: pd.DataFrame
    skipped: list[str]
    checked: dict
    notes: list[str]


def deck_pairings(info) -> list[tuple[str, str]]:
    """The folder's default pair first, then every other pair of its .deck files."""
    names = sorted(p.stem for p in Path(info.path).glob("*.deck"))
    pairs = [tuple(info.decks)]
    pairs += [(a, b) for a, b in itertools.combinations(names, 2)
              if {a, b} != set(info.decks)]
    return pairs


def _edits(game: Game, m) -> list:
    hook = game.lint.edits if game.lint is not None and game.lint.edits else None
    return hook(m) if hook else game.value_edits(m, None)


def _legal(game: Game, m) -> str:
    problems = game.validate(m) if game.validate is not None else []
    return "; ".join(str(p) for p in problems)


class _Counter:
    """run_batch with a count of the batches and matches it played."""

    def __init__(self, game: Game, seed: int):
        self.game, self.seed, self.batches, self.matches = game, seed, 0, 0

    def run(self, m, first: int, n: int):
        self.batches += 1
        self.matches += n
        return self.game.run_batch(m, n, self.seed, first_match=first)


def _arms_of(game: Game, info, s: Setting, rules: dict, changes: list[dict],
             arms: dict[str, Arm]):
    """(arm, matchup) for every change this setting can play; an illegal one is marked
    skipped. New arms are added to `arms` the first time they are met."""
    seen = set()
    for v in _edits(game, s.matchup):
        if v.item in seen:  # the same pool edit listed once per seat
            continue
        seen.add(v.item)
        arm = arms.setdefault(v.item, Arm(v.item, v.card, v.name, v.field))
        if not arm.skipped:
            arm.skipped = v.refused or _legal(game, v.matchup)
        yield arm, v.matchup
    for change in changes:
        key = ", ".join(f"{k}={v}" for k, v in change.items())
        arm = arms.setdefault(key, Arm(key, option=", ".join(change), change=change))
        if arm.skipped or arm.differs:
            continue
        try:
            m = game.load_matchup(info.path, *s.decks, s.policy, s.policy,
                                  {**rules, **change}, [])
        except InputError as err:
            arm.skipped = "; ".join(str(p) for p in err.problems)
            continue
        arm.skipped = _legal(game, m)
        yield arm, m


def inert_arms(game: Game, info, settings: list[Setting], rules: dict, matches: int,
               runner: _Counter) -> tuple[dict[str, Arm], dict]:
    """Every card edit and rule alternative against the baseline of each setting, on the
    same seeds: first the first HEAD matches of every setting, then the rest for the
    changes still byte-identical. Returns the arms and the baselines' card statistics."""
    head = min(HEAD, matches)
    stages = [(0, head), (head, matches - head)] if matches > head else [(0, head)]
    m = settings[0].matchup
    changes = [] if game.lint is None else (
        game.lint.rule_variants(m) if game.lint.rule_variants else
        game.options.variants(m.rules.values))
    arms: dict[str, Arm] = {}
    stats = {}
    for stage, (first, n) in enumerate(stages):
        last = stage == len(stages) - 1
        for i, s in enumerate(settings):
            base = runner.run(s.matchup, first, n)
            stats[i] = base.card_stats + stats.get(i, 0)
            for arm, m in _arms_of(game, info, s, rules, changes, arms):
                if arm.skipped or arm.differs:
                    continue
                if not runner.run(m, first, n).same_as(base):
                    arm.differs = s.label
                elif last:
                    arm.compared.append(s.label)
    return arms, stats


def _evidence(arm: Arm, matches: int, seed: int) -> str:
    return (f"records byte-identical (matches, histograms, card statistics) in "
            f"{len(arm.compared)} setting(s): {', '.join(arm.compared)}; matches "
            f"0..{matches - 1} of seed {seed} each, both seats on the policy")


def dead_rows(game: Game, settings: list[Setting], stats: dict, matches: int) -> pd.DataFrame:
    """Cards of a judged kind that no policy played in any setting, with the drawn and
    played counts of each policy as evidence."""
    schema = game.schema.to_json()
    if not schema.get("played"):
        return pd.DataFrame(columns=COLUMNS)
    names = list(game.schema.all_card_stats)
    frames = []
    for i, s in enumerate(settings):
        d = game.describe(s.matchup)
        pool = d["card_pool"]
        cs = stats[i]
        seat, card = np.meshgrid(np.arange(2), np.arange(cs.shape[1]), indexing="ij")
        cards = pd.DataFrame({"seat": seat.ravel(),
                              "card": np.array(pool["ids"], dtype=object)[card.ravel()]})
        for k, name in enumerate(names):
            cards[name] = cs[:, :, k].ravel()
        use = card_usage(cards, schema, dict(zip(pool["ids"], pool["kinds"], strict=True)),
                         d.get("starting"))
        use["policy"], use["setting"] = s.policy, s.label
        use["deck"] = [s.decks[x] for x in use.seat]
        use["name"] = use.card.map(dict(zip(pool["ids"], pool["names"], strict=True)))
        frames.append(use)
    use = pd.concat(frames, ignore_index=True)
    use = use[use.judged]
    rows = []
    for cid, g in use.groupby("card", sort=False):
        if g.played.sum() > 0:
            continue
        per = g.groupby("policy", sort=False)[["matches_in_deck", "matches_drawn",
                                               "played"]].sum()
        evidence = "; ".join(f"{p}: drawn in {r.matches_drawn:,} of {r.matches_in_deck:,} "
                             f"matches, played {r.played}" for p, r in per.iterrows())
        rows.append({"finding": "dead card", "card": cid, "name": g["name"].iat[0],
                     "kind": g["kind"].iat[0], "decks": ", ".join(dict.fromkeys(g.deck)),
                     "policies": ", ".join(per.index), "settings": g.setting.nunique(),
                     "matches": matches, "evidence": evidence})
    return pd.DataFrame(rows, columns=COLUMNS)


def dominated_rows(game: Game, m) -> pd.DataFrame:
    """Pairs of cards of one kind with equal `same` fields where one is no better in any
    benefit at no lower cost: "dominated" when the other is better somewhere, "identical"
    (listed once, the later card) when every compared field is equal."""
    if game.lint is None:
        return pd.DataFrame(columns=COLUMNS)
    dom = game.lint.dominance
    df = game.lint.cards(m).reset_index(drop=True)
    kinds = game.schema.flag_kinds
    if kinds:
        df = df[df.kind.isin(kinds)]
    fields = [*dom.costs, *dom.benefits]
    rows = []
    for _, g in df.groupby(["kind", *dom.same], sort=False, dropna=False):
        costs = g[list(dom.costs)].to_numpy(dtype=float)
        gains = g[list(dom.benefits)].to_numpy(dtype=float)
        for i, j in itertools.permutations(range(len(g)), 2):
            if not ((costs[j] <= costs[i]).all() and (gains[j] >= gains[i]).all()):
                continue
            same = (costs[j] == costs[i]).all() and (gains[j] == gains[i]).all()
            if same and j > i:
                continue
            a, b = g.iloc[i], g.iloc[j]
            shown = [f for f in fields if a[f] or b[f]] or fields
            side = ", ".join(f"{f} {a[f]:g} vs {b[f]:g}" for f in shown)
            rows.append({"finding": "dominated card", "card": a["id"], "name": a["name"],
                         "kind": a["kind"], "other_card": b["id"], "other_name": b["name"],
                         "edit": "identical" if same else "dominated",
                         "evidence": f"{side} (equal: kind, {', '.join(dom.same)})"})
    return pd.DataFrame(rows, columns=COLUMNS)


def lint(folder, policies: list[str] | None = None, rules: dict | None = None,
         matches: int = 400, seed: int = 1) -> LintResult:
    """Every finding of a game folder (see the module docstring); InputError on bad input."""
    start = time.perf_counter()
    info = read_folder(folder)
    game = get(info.game)
    require_policies(info.path, policies or [], "--policy")
    policies = list(dict.fromkeys(policies or folder_policies(info.path)))
    rules = dict(rules or {})
    settings = [Setting(pair, p, game.load_matchup(info.path, *pair, p, p, rules, []))
                for pair in deck_pairings(info) for p in policies]
    runner = _Counter(game, seed)
    arms, stats = inert_arms(game, info, settings, rules, matches, runner)
    inert = [a for a in arms.values() if a.compared and not a.differs and not a.skipped]
    rows = [{"finding": "inert rule option" if a.option else "inert card field",
             "card": a.card, "name": a.name, "field": a.field, "option": a.option,
             "edit": a.edit, "decks": ", ".join(dict.fromkeys(
                 d for s in settings if s.label in a.compared for d in s.decks)),
             "policies": ", ".join(dict.fromkeys(s.policy for s in settings
                                                 if s.label in a.compared)),
             "settings": len(a.compared), "matches": matches,
             "evidence": _evidence(a, matches, seed)}
            for a in inert]
    findings = pd.concat([pd.DataFrame(rows, columns=COLUMNS),
                          dead_rows(game, settings, stats, matches),
                          dominated_rows(game, settings[0].matchup)], ignore_index=True)
    for col in ("settings", "matches"):
        findings[col] = findings[col].fillna(0).astype("int64")
    findings = findings.fillna("")
    notes = [] if game.lint else [f"{game.name} declares no lint hooks: rule options and "
                                  "dominance are not checked"]
    if not game.schema.played:
        notes.append(f"{game.name} declares no played statistic: dead cards not checked")
    skipped = [f"{a.edit}: {a.skipped}" for a in arms.values() if a.skipped]
    n_cards = sum(1 for a in arms.values() if not a.option)
    tried = [a for a in arms.values() if not a.skipped]
    n_tried = sum(1 for a in tried if not a.option)
    checked = {"game": game.name, "settings": [s.label for s in settings],
               "card_edits": n_cards, "rule_variants": len(arms) - n_cards,
               "card_edits_tried": n_tried, "rule_variants_tried": len(tried) - n_tried,
               "batches": runner.batches, "matches_played": runner.matches,
               "seconds": round(time.perf_counter() - start, 1)}
    return LintResult(findings, skipped, checked, notes)
