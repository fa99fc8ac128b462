"""The results folder of a designed experiment: a new folder per run, tables written whole
under temporary names, and the manifest that says what was run."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from sim.core.problems import InputError, Problem
from sim.store.runs import check_run_id


def dated_name(kind: str) -> str:
    """The name a folder of that kind gets when none is given: kind-YYYYmmdd-HHMMSS."""
    return datetime.now(UTC).strftime(f"{kind}-%Y%m%d-%H%M%S")


def new_folder(results: Path | str, run_id: str | None, kind: str) -> Path:
    """results/<run_id>, created now (a dated name of that kind when run_id is None)."""
    run_id = run_id or dated_name(kind)
    check_run_id(run_id)
    path = Path(results) / run_id
    if path.exists():
        raise InputError([Problem(str(path), 0, "a results folder of that name exists; "
                                  "name another with --run-id")])
    path.mkdir(parents=True)
    return path


def save_tables(path: Path, tables: dict[str, pd.DataFrame], manifest: dict | None) -> None:
    """Tables under temporary names, renamed when whole; the manifest last (when given)."""
    for name, df in tables.items():
        tmp = path / f".{name}.parquet.tmp"
        plain = df.copy()
        plain.attrs = {}  # attrs carry tables and figures for the caller, not for the file
        plain.to_parquet(tmp, index=False)
        os.replace(tmp, path / f"{name}.parquet")
    if manifest is not None:
        write_json(path / "manifest.json", manifest)


def write_json(path: Path, data: dict) -> None:
    """A JSON file written whole or not at all."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
    os.replace(tmp, path)


def experiment_manifest(game, m, seed: int, matches: int, kind: str) -> dict:
    """What a designed experiment ran: its kind, game, seed, size, decks, policies, rules
    and card pool."""
    d = game.describe(m)
    return {"kind": kind, "game": game.name,
            "created": datetime.now(UTC).isoformat(timespec="seconds"), "seed": seed,
            "matches": matches, "decks": [x["name"] for x in d["decks"]],
            "policies": [x["name"] for x in d["policies"]], "rules": d["rules"],
            "card_pool_sha256": d["card_pool"]["sha256"]}
