"""What a run plays from its game folder's files, kept when it begins (each card's values,
each deck's cards, each policy's settings, the rule options), and each file that a resume
would now read otherwise, so that no result mixes two card sets."""

from __future__ import annotations

import json
from pathlib import Path

from sim.core.problems import InputError, Problem

SHOWN = 8  # changes told one by one in a file; the rest counted


def played(game, folder: Path | str, matchups) -> dict:
    """The record of what `matchups` play (one run's, read from `folder`: the same cards
    and rules in each), in JSON's terms: the values the engine takes, as the game describes
    them for a manifest, not the files' bytes, so that a comment or a reordered line
    changes nothing."""
    folder = Path(folder)
    out = {"files": {"cards": str(folder / "cards.csv"),
                     "policies": str(folder / "policies.toml"),
                     "rules": str(folder / "rules.toml")},
           "cards": {}, "decks": {}, "policies": {}, "rules": {}}
    for i, m in enumerate(matchups):
        described = game.describe(m)
        if i == 0:  # the cards and rules are one run's: read from its first matchup
            out["files"]["cards"] = str(described["card_pool"].get("path")
                                        or out["files"]["cards"])
            out["cards"] = card_values(m, described)
            out["rules"] = described["rules"]
        for seat, entry in enumerate(described["decks"]):
            out["decks"][entry["name"]] = {"file": str(entry.get("path", "")),
                                           "cards": deck_cards(game, m, seat, entry)}
        for policy in described["policies"]:
            out["policies"][policy["name"]] = policy.get("params")
    return json.loads(json.dumps(out, default=str))


def card_values(m, described: dict) -> dict:
    """Each card's row of the integer table by its id (and its text, where the game's runs
    keep it: a game that reads its texts), with the names of the row's fields; a game
    whose manifests keep no table, its card pool's digest."""
    pool = described["card_pool"]
    table = pool.get("table", described.get("card_table"))
    if table is None:
        return {"sha256": pool.get("sha256", "")}
    columns = getattr(getattr(getattr(m, "pool", None), "CARDS", None), "columns", ())
    named = {c.slot: c.name for c in columns if c.slot is not None}
    texts = pool.get("texts")
    fields = [named.get(s, f"slot {s}") for s in range(len(table[0]) if table else 0)]
    rows = {cid: [int(v) for v in row] + ([texts[i]] if texts is not None else [])
            for i, (cid, row) in enumerate(zip(pool["ids"], table, strict=True))}
    return {"fields": fields + (["text"] if texts is not None else []), "rows": rows}


def deck_cards(game, m, seat: int, entry: dict):
    """A seat's deck as copies of each card id (a game with deck-building hooks), else as
    its manifest entry holds it."""
    if game.building is not None:
        return {cid: int(n) for cid, n in sorted(game.building.counts(m, seat).items())}
    return {k: v for k, v in entry.items() if k not in ("name", "path")}


def listed(said: list[str]) -> str:
    more = len(said) - SHOWN
    return "; ".join(said[:SHOWN]) + (f"; and {more} more" if more > 0 else "")


def card_changes(before: dict, now: dict) -> list[str]:
    if "rows" not in before or "rows" not in now:
        return ["the card table changed"] if before != now else []
    was, rows, fields = before["rows"], now["rows"], now["fields"]
    said = [f"card {cid} removed" for cid in was if cid not in rows]
    for cid, row in rows.items():
        if cid not in was:
            said.append(f"card {cid} added")
        elif row != was[cid]:
            if before["fields"] != fields or len(row) != len(was[cid]):
                said.append(f"card {cid} changed")
                continue
            said += [f"{cid} {field} {a} -> {b}"
                     for field, a, b in zip(fields, was[cid], row, strict=True) if a != b]
    return said


def count_changes(before, now) -> list[str]:
    if not (isinstance(before, dict) and isinstance(now, dict)
            and all(isinstance(v, int) for v in [*before.values(), *now.values()])):
        return ["its cards changed"] if before != now else []
    return [f"{cid} {before.get(cid, 0)} -> {now.get(cid, 0)} copies"
            for cid in dict.fromkeys([*before, *now]) if before.get(cid, 0) != now.get(cid, 0)]


def shown(values: dict, key: str) -> str:
    return json.dumps(values[key]) if key in values else "(none)"


def changes(before: dict, now: dict) -> list[Problem]:
    """Each file whose values `now` (played() of the files as they are) differ from those
    `before` (played() when the run began), with what changed: the cards, a deck's copies,
    a policy, a rule option."""
    files = now["files"]
    found = []
    said = card_changes(before["cards"], now["cards"])
    if said:
        found.append(Problem(files["cards"], 0, f"changed since the run began: {listed(said)}"))
    for name, deck in before["decks"].items():
        later = now["decks"].get(name)
        if later is None:  # a deck a run played is always played again on resume
            continue
        said = count_changes(deck["cards"], later["cards"])
        if said:
            found.append(Problem(later["file"] or name, 0, f"deck {name} changed since the "
                                 f"run began: {listed(said)}"))
    said = [f"the settings of policy {name}" for name, vector in before["policies"].items()
            if name in now["policies"] and now["policies"][name] != vector]
    if said:
        found.append(Problem(files["policies"], 0, f"changed since the run began: "
                             f"{listed(said)}"))
    rules = now["rules"]
    said = [f"{key} {shown(before['rules'], key)} -> {shown(rules, key)}"
            for key in dict.fromkeys([*before["rules"], *rules])
            if before["rules"].get(key) != rules.get(key)]
    if said:
        found.append(Problem(files["rules"], 0, f"rule options changed since the run began: "
                             f"{listed(said)}"))
    return found


def require_unchanged(before: dict | None, now: dict, run: Path | str) -> None:
    """InputError naming each file of the run's folder that changed what the run plays
    since it began (`before`: its record; None for a run recorded before records were
    kept, which is let through), with the ways on: put the files back, or a new run."""
    if before is None:
        return
    found = changes(before, now)
    if found:
        raise InputError([Problem(str(run), 0, "not resumed: the game folder's files "
                                  "changed since the run began, and the rest of the run "
                                  "would play them as they are now, mixing two card sets "
                                  "in one result. Put the files back as they were to finish "
                                  "it, or start a new run without --resume:"), *found])
