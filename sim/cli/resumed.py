"""What a resumed run may be given on its command line: an option typed there whose value
differs from the one the run was made with is refused (exit 2, each such option named
with both values), since a resume goes on with the run's own options."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import typer

from sim.cli.shared import fail, guarded, parse_overrides, split_list

# Each command imports what it needs inside its body (deferred): a game's files and the
# experiments load only when a resume reads them.


def typed(ctx: typer.Context, name: str) -> bool:
    """Whether the command's parameter `name` was given on this command line (not left at
    its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def label(ctx: typer.Context, name: str) -> str:
    """A parameter as the command's help names it: its first option name, or an
    argument's metavar."""
    param = next(p for p in ctx.command.params if p.name == name)
    if param.param_type_name == "option":
        return param.opts[0]
    return (param.metavar or param.name).upper()


def shown(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}={shown(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value) or "none"
    return str(value)


def plain(value):
    """A value as a JSON record holds it (tuples as lists), so that a typed value and a
    stored one compare alike."""
    return json.loads(json.dumps(value, default=str))


def refuse_changes(ctx: typer.Context, run: Path, stored: dict, given: dict) -> None:
    """Exit 2 naming each option typed on this command line whose value differs from the
    run's: `given` holds each option's value in the form `stored` (the run's record) holds
    it, or a function giving it (called only for an option that was typed, so that a
    default is never resolved). Options not typed, or that the run does not record (those
    harmless to change: workers, progress display), pass."""
    differ = []
    stored = {**stored, "run_id": run.name}  # --run-id names the folder a resume names
    for name, value in given.items():
        if name not in stored or not typed(ctx, name):
            continue
        value = value() if callable(value) else value
        if plain(value) != plain(stored[name]):
            differ.append(f"  {label(ctx, name)}: {shown(value)} given, the run's is "
                          f"{shown(stored[name])}")
    if differ:
        fail(f"{run}: resumed with options that differ from the run's (a resume goes on "
             "with the options the run was made with: leave these out to finish it, or "
             "start a new run under another --run-id):\n" + "\n".join(differ))


def folder_path(folder: str | None) -> str:
    """A --folder as a record keeps it: the game folder it names, as an absolute path."""
    from sim.kit.folders import default_folder, read_folder

    info = guarded(lambda: read_folder(folder or str(default_folder())))
    return str(Path(info.path).resolve())


def field_given(folder, decks, policy, rules, sets) -> dict:
    """A field's options (meta, deckbuild) in the form its folder's record keeps them
    (sim.experiments.meta.field_record)."""
    return {"folder": lambda: folder_path(folder), "decks": lambda: split_list(decks),
            "policy": policy, "rules": lambda: parse_overrides(rules),
            "sets": list(sets or ())}


def resumed_field(ctx: typer.Context, path: Path, record: str, load_field, folder,
                  options: dict):
    """A meta or deckbuild folder's record (`record`: its file) and the field it keeps, to
    resume it: exit 2 naming each option typed that differs from the record (`options`:
    the command's, by parameter name; the field's as typed, the rest as the record keeps
    them, deckbuild's search among them). A record from before the folder was kept takes
    the folder typed (`load_field`, the command's loader)."""
    from sim.experiments.meta import read_record, recorded_field

    kind = "meta" if record == "meta.json" else "deckbuild"
    saved = guarded(lambda: read_record(path, record, kind))
    typed = {k: options.pop(k) for k in ("decks", "policy", "rules", "sets")}
    field = field_given(folder, *typed.values())
    stored = {**saved, **saved.get("search", {})}
    if "from_files" in saved:
        _as_played(stored, field, saved, typed["rules"], typed["sets"])
    refuse_changes(ctx, path, stored, {**field, **options})
    fallback = (None if "folder" in saved else
                load_field(folder, ",".join(saved["decks"]), saved.get("policy"), None,
                           saved["sets"]))
    return saved, guarded(lambda: recorded_field(saved, fallback))


def _as_played(stored: dict, given: dict, saved: dict, rules, sets) -> None:
    """A field's rule options and card values typed, set against the values the run
    played (its record's from_files), as simulate and train set theirs: one typed at the
    run's own value passes, a default the run left out included."""
    from sim.experiments.meta import recorded_field

    typed = parse_overrides(rules)
    stored["rules"] = {k: saved["from_files"]["rules"].get(k) for k in typed}
    given["rules"] = typed
    if sets:
        pool = guarded(lambda: recorded_field(saved).pair(0, 1).pool)
        stored["sets"], given["sets"] = _card_values(pool, list(sets))


def simulate_given(manifest: dict, setup, numbers: dict) -> tuple[dict, dict]:
    """(stored, given) of a simulation run: its numbers as its manifest has them, and each
    matchup option as the run resolved it (a deck by its name, a policy by its name on
    each seat it took, a rule option and a card value as the run played them)."""
    target = manifest.get("target_ci") is not None
    decks = [d["name"] for d in manifest["decks"]]
    policies = [p["name"] for p in manifest["policies"]]
    stored = {"seed": manifest["seed"], "chunk_size": manifest["chunk_size"],
              "target_ci": manifest["target_ci"],
              "max_matches" if target else "matches": manifest["matches"],
              "deck_a": decks[0], "deck_b": decks[1], "table": decks[2:],
              "policy": policies[0] if len(set(policies)) == 1 else policies,
              "policy_a": policies[0], "policy_b": policies[1],
              "folder": _pool_words(manifest["game"], manifest["card_pool"]["sha256"])}

    def stem(deck: str) -> str:
        return Path(deck).stem if deck.endswith(".deck") else deck

    given = {**numbers, "deck_a": lambda: stem(setup.deck_a),
             "deck_b": lambda: stem(setup.deck_b),
             "table": lambda: [stem(d) for d in setup.table],
             "policy": setup.policy,
             "policy_a": setup.policy_a, "policy_b": setup.policy_b,
             "folder": lambda: _folder_words(setup.folder)}
    # A rule option or card value typed is set against the run's own (the rest of the
    # run's rules and cards are not the option's).
    typed_rules = parse_overrides(list(setup.rules))
    stored["rules"] = {k: manifest["rules"].get(k) for k in typed_rules}
    given["rules"] = typed_rules
    if setup.sets:
        from sim.kit import game as registry

        pool = guarded(lambda: registry.get(manifest["game"]).from_manifest(manifest).pool)
        stored["sets"], given["sets"] = _card_values(pool, list(setup.sets))
    return stored, given


def train_given(manifest: dict, kept, setup) -> tuple[dict, dict]:
    """(stored, given) of a training run's matchup options (`kept`: the run's Setup, as
    typed when it began; `setup`: this command line's), each as the run resolved it: a
    deck by the file it names (a deck of the run's folder by its name), the folder by its
    path, --policy by the opponent (train plays it on both seats), a rule option and a
    card value by the run's own; so that typing what the run played, a default it left out
    included, passes."""
    folder = Path(manifest["folder"]).resolve()
    decks, opponent = manifest["decks"], manifest["opponent"]
    stored = {"folder": str(folder), "deck_a": _deck(folder, kept.deck_a or decks[0]),
              "deck_b": _deck(folder, kept.deck_b or decks[1]),
              "table": [_deck(folder, d) for d in (kept.table or decks[2:])],
              "policy": opponent}
    given = {"folder": lambda: folder_path(setup.folder),
             "deck_a": lambda: _deck(folder, setup.deck_a),
             "deck_b": lambda: _deck(folder, setup.deck_b),
             "table": lambda: [_deck(folder, d) for d in setup.table],
             "policy": setup.policy}
    typed_rules = parse_overrides(list(setup.rules))
    # The run's rule values where it kept them (sim.kit.played), else its overrides.
    values = manifest.get("from_files", {}).get("rules") or parse_overrides(list(kept.rules))
    stored["rules"] = {k: values.get(k) for k in typed_rules}
    given["rules"] = typed_rules
    if setup.sets:
        # The run's cards: the folder's with the run's --set (a file changed since is
        # refused after the options, by the training itself).
        pool = guarded(lambda: dataclasses.replace(kept, policy=opponent).matchup(
            kept.info())[1].pool)
        stored["sets"], given["sets"] = _card_values(pool, list(setup.sets))
    return stored, given


def _deck(folder: Path, word: str) -> str:
    """A deck option as the file it names, read as a game folder reads it (a word ending
    in .deck a file, any other a deck of the folder): a deck of `folder` by its name,
    any other by its path."""
    path = Path(word)
    path = (path if path.suffix == ".deck" else folder / f"{word}.deck").resolve()
    return path.stem if path.parent == folder else str(path)


def _pool_words(game: str, sha256: str) -> str:
    return f"game {game}, cards.csv {sha256.split('+')[0][:12]}"


def _folder_words(folder: str | None) -> str:
    """A folder's game and its cards.csv, as `_pool_words` tells a run's."""
    import hashlib

    from sim.core.datafiles import read_text
    from sim.kit.folders import default_folder, read_folder

    info = guarded(lambda: read_folder(folder or str(default_folder())))
    text = guarded(lambda: read_text(Path(info.path) / "cards.csv"))  # as a card table reads it
    return _pool_words(info.game, hashlib.sha256(text.encode("utf-8")).hexdigest())


def _card_values(pool, sets: list[str]) -> tuple[list[str], list[str]]:
    """The --set edits typed that would change the run's own card values (`pool`: the
    card table it played), and the run's values of those fields."""
    edits = [item for item in sets
             if (guarded(lambda item=item: pool.with_sets([item])).table != pool.table).any()]
    had = []
    for item in edits:
        what = item.partition("=")[0]
        try:
            had.append(f"{what}={pool.value_of(what, '--set')}")
        except Exception:  # a field the game reads in its own words: told as changed
            had.append(f"{what} as it was")
    return had, edits
