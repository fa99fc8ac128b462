"""The Encounter game behind the lab's contract: its schema and the GAME object."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.engine import DEATH_BINS, MATCH_COLUMNS
from sim.game import Histogram, Rate, Schema

_MEANING = {
    "winner": "0 deck A, 1 deck B, -1 a draw",
    "end": "how it ended: 0 points, 1 PC killed, 2 deck-out, 3 turn cap",
    "first_player": "seat that took the first turn",
    "turns": "turns played, both players together",
    "points": "quest points scored",
    "quests_attempted": "quests played",
    "quests_completed": "quests completed",
    "pc_wounds": "wounds the seat's PC took",
    "party_wounds": "wounds the seat's party NPCs took",
    "strikes_faced": "combats against strikers on the seat's own quests",
    "strikers_defeated": "of those, combats its defender won",
    "pc_death_turn": "turn the seat's PC was killed, -1 when it lived (censored at turns)",
    "opening_quests": "quests in the seat's opening hand",
}


def _meaning(col: str) -> str:
    base = col[:-2] if col.endswith(("_a", "_b")) else col
    seat = {"_a": " (deck A)", "_b": " (deck B)"}.get(col[-2:], "")
    return _MEANING[base] + seat


SCHEMA = Schema(
    match_columns={c: _meaning(c) for c in MATCH_COLUMNS},
    first_player="first_player",
    first_player_label="first player",
    end_column="end",
    end_reasons=K.END_REASONS,
    lengths={"turns": "turns per match"},
    # A PC still standing when the match ends is censored at the match's last turn.
    histograms={"pc_death": Histogram(
        "PC killed in turn", "the PC's owner", DEATH_BINS, "game turn",
        censored=("turns * (pc_death_turn_a < 0) - (pc_death_turn_a >= 0)",
                  "turns * (pc_death_turn_b < 0) - (pc_death_turn_b >= 0)"),
        subject="PCs alive at this turn")},
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
         "the turn it fell, as a Kaplan-Meier curve censored at the match's end.",
         (Rate("PC killed ({a})", "pc_death_turn_a >= 0"),
          Rate("PC killed ({b})", "pc_death_turn_b >= 0"),
          Rate("opening hand held a quest ({a})", "opening_quests_a > 0"),
          Rate("opening hand held a quest ({b})", "opening_quests_b > 0"))),
    ),
    log_columns={"turn": "turn number", "seat": "acting seat", "event": "event code",
                 "card": "card index, -1 none", "a": "first value", "b": "second value"},
)


def describe(m) -> dict:
    """The manifest entry of a matchup: everything from_manifest needs, card values too."""
    pool = m.pool
    return {
        "game": "encounter",
        "folder": m.folder,
        "decks": [d.to_json() for d in m.decks],
        "policies": [{"name": n, "params": [int(x) for x in v]}
                     for n, v in zip(m.policy_names, m.policies, strict=True)],
        "rules": dict(m.rules),
        "card_pool": {"path": pool.path, "ids": list(pool.ids), "names": list(pool.names),
                      "kinds": list(pool.kinds), "sha256": pool.sha256,
                      "table": pool.table.tolist()},
        "histogram_labels": {"pc_death": [str(t) for t in range(DEATH_BINS)]},
        # The PC and its starting characteristics are in play from the start, never played.
        "starting": [[pool.ids[c] for c in (d.pc, *d.chars) if c not in d.draw + d.loot]
                     for d in m.decks],
    }


def from_manifest(man: dict):
    """The identical matchup from a manifest (card values as recorded)."""
    import numpy as np

    from sim.encounter.batch import Matchup
    from sim.encounter.pool import Deck, Pool

    cp = man["card_pool"]
    pool = Pool(cp.get("path", ""), tuple(cp["ids"]), tuple(cp["names"]), tuple(cp["kinds"]),
                np.array(cp["table"], dtype=np.int64), (), cp.get("sha256", ""))
    decks = tuple(Deck.from_json(d) for d in man["decks"])
    pols = man["policies"]
    return Matchup(man.get("folder", ""), pool, dict(man["rules"]), (decks[0], decks[1]),
                   (pols[0]["name"], pols[1]["name"]),
                   tuple(np.array(p["params"], dtype=np.int64) for p in pols))


def check_paths(paths) -> tuple[list[str], list]:
    """The validator: game folders (cards, rules, policies, every deck) or single files."""
    from pathlib import Path

    from sim.datafiles import attempt
    from sim.encounter.options import load_rules
    from sim.encounter.params import load_policies
    from sim.encounter.pool import load_deck, load_pool
    from sim.problems import Problem

    notes, problems = [], []
    for raw in paths:
        path = Path(raw)
        folder = path if path.is_dir() else path.parent
        if not path.exists():
            problems.append(Problem(str(path), 0, "no such file or folder"))
            continue
        pool = attempt(problems, load_pool, folder / "cards.csv")
        rules = attempt(problems, load_rules, folder / "rules.toml")
        if path.is_dir() or path.name == "policies.toml":
            pols = attempt(problems, load_policies, folder / "policies.toml")
            if pols is not None:
                notes.append(f"{folder / 'policies.toml'}: {len(pols)} policies")
        if pool is not None and (path.is_dir() or path.name == "cards.csv"):
            notes.append(f"{pool.path}: {len(pool)} cards")
        if rules is not None and (path.is_dir() or path.name == "rules.toml"):
            notes.append(f"{folder / 'rules.toml'}: {len(rules)} rule options")
        decks = sorted(folder.glob("*.deck")) if path.is_dir() else (
            [path] if path.suffix == ".deck" else [])
        for d in decks:
            if pool is not None and rules is not None:
                deck = attempt(problems, load_deck, d, pool, rules)
                if deck is not None:
                    notes.append(f"{d}: {pool.names[deck.pc]}, {len(deck.draw)} draw, "
                                 f"{len(deck.loot)} loot")
    return notes, problems


def _load(folder, deck_a, deck_b, policy_a="careful", policy_b=None, rules=None, sets=None):
    from sim.encounter.batch import load_matchup

    return load_matchup(folder, deck_a, deck_b, policy_a, policy_b, rules, list(sets or []))


def _run(m, n, seed, first_match=0, n_log=0):
    from sim.encounter.batch import run_batch

    return run_batch(m, n, seed, first_match, n_log)


def _ref(m, n, seed, first_match=0, n_log=0):
    from sim.encounter.batch import reference_batch

    return reference_batch(m, n, seed, first_match, n_log)


def _replay(m, seed, match_index):
    from sim.encounter.reference import replay

    return replay(m, seed, match_index)


def _with_rules(m, changes):
    from sim.encounter.batch import with_rules

    return with_rules(m, changes)


def _validate(m) -> list:
    from sim.encounter.pool import matchup_problems

    return matchup_problems(m.pool, m.decks, m.rules)


def _exact(m, rec):
    from sim.encounter.exact import exact_check

    return exact_check(m, rec)


from sim.encounter.building import BUILDING  # noqa: E402
from sim.encounter.lint import LINT  # noqa: E402
from sim.encounter.tuning import TUNING  # noqa: E402
from sim.encounter.variants import SWEEPS, ablations, value_edits  # noqa: E402
from sim.game import Game  # noqa: E402

GAME = Game(
    name="encounter",
    title="Encounter RPCCG",
    schema=SCHEMA,
    load_matchup=_load,
    run_batch=_run,
    reference_batch=_ref,
    replay=_replay,
    describe=describe,
    from_manifest=from_manifest,
    check_paths=check_paths,
    with_rules=_with_rules,
    value_edits=value_edits,
    ablations=ablations,
    sweeps=SWEEPS,
    validate=_validate,
    exact_check=_exact,
    tuning=TUNING,
    lint=LINT,
    building=BUILDING,
)
