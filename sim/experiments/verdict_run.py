"""A stored run's card verdicts: its own matchup and seed played by its game folder's
policies (sim.experiments.verdicts), each card also against the folder's field, saved beside
the run."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from sim.core.problems import InputError
from sim.experiments.field_worth import field_worth
from sim.experiments.verdicts import Precision, card_verdicts
from sim.kit.folders import default_folder, read_folder
from sim.kit.game import get
from sim.runner.warmup import ensure
from sim.store.lock import writing
from sim.store.outputs import save_tables, write_json


def for_run(path, precision: Precision = Precision(), progress=None,
            folder=None, field_matches: int = 4000) -> pd.DataFrame:
    """A stored run's verdicts, on its own matchup and seed, its decks played by the
    policies of `folder` (the run's game folder by default), saved beside it as
    verdicts.parquet with verdicts.json (how they were made and how many matches they took).
    Where the folder has a field and the run two seats, each card's worth against every
    field deck too (`field_matches` each; 0: none), weighted by the field's Nash mix, as
    field_worth and the table verdicts_field.parquet; where it is not measured (more seats, a
    field deck the run's matchup refuses), why, as the attribute field_refused."""
    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    game = get(manifest["game"])
    matchup = game.from_manifest(manifest)
    ensure(game, matchup)
    folder = folder or manifest.get("folder") or default_folder(game.name)
    info = read_folder(folder)
    info.require("defaults.trained")
    seed = int(manifest["seed"])
    with writing(path, "a verdict run"):
        df = card_verdicts(game, matchup, seed, precision, progress, folder,
                           trained=info.trained)
        skipped = df.attrs.pop("skipped")
        pars = df.attrs.pop("par_values")
        tables = {"verdicts": df, "verdicts_skipped": skipped}
        wants_field = field_matches and len(info.field) > 1 and len(df)
        if wants_field and len(matchup.decks) != 2:
            df.attrs["field_refused"] = ("the field is played at a table of two; this run "
                                         f"seats {len(matchup.decks)}")
        elif wants_field:
            attrs = df.attrs  # field_worth returns a new table, without them
            try:
                info.require("field.decks")
                df, tables["verdicts_field"] = field_worth(game, matchup, seed, df, pars,
                                                           folder, list(info.field),
                                                           field_matches, info.trained)
                df.attrs = attrs | {"field": tables["verdicts_field"].attrs["nash"],
                                    "field_matches": tables["verdicts_field"].attrs["matches"]}
            except InputError as e:  # a field deck the run's matchup refuses: no field
                df.attrs = attrs | {"field_refused": str(e)}
            tables["verdicts"] = df
        save_tables(path, tables, None)
        write_json(path / "verdicts.json", {**df.attrs, "skipped": len(skipped),
                                            "seed": manifest["seed"], "folder": str(folder)})
    df.attrs["skipped"] = skipped
    return df
