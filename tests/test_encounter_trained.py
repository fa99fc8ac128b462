"""Encounter's trained policy: the folder names it, it loads as careful with tuned numbers,
`cardlab train` keeps the source policy's words, and one claim of its held-out figures
(docs/encounter-rules.md, "The trained policy")."""

import shutil
import tomllib

import numpy as np

from sim.encounter.params import PARAMS, load_policies
from sim.encounter.tuning import BOUNDS, params
from sim.kit.folders import read_folder
from sim.kit.game import get
from sim.solvers.train import train, tuned_policies

from .conftest import ROOT

FOLDER = ROOT / "decks" / "encounter"


def test_the_folder_names_a_trained_policy_that_loads_as_careful_with_tuned_numbers():
    info = read_folder(FOLDER)
    assert info.trained == "trained" and "trained" in tuned_policies(FOLDER)
    policies = load_policies(FOLDER / "policies.toml")
    trained, careful = policies["trained"], policies["careful"]
    # The style and every choice of words are careful's; training moves only the numbers.
    for name, (slot, *_) in PARAMS.items():
        if name not in BOUNDS:
            assert trained[slot] == careful[slot], name
    assert all(p.lo <= p.value <= p.hi for p in params(FOLDER, "trained"))
    assert any(trained[PARAMS[n][0]] != careful[PARAMS[n][0]] for n in BOUNDS)


def test_training_writes_the_source_policys_table_with_the_tuned_numbers(tmp_path):
    folder = tmp_path / "encounter"
    shutil.copytree(FOLDER, folder)
    g = get("encounter")
    base = g.load_matchup(folder, "orc-warband", "grey-expedition", "careful", "careful",
                          {}, [])
    _, manifest = train(g, folder, base, "careful", "careful", "tiny", matches=20, popsize=2,
                        generations=1, holdout=20, results=tmp_path, run_id="t")
    tables = tomllib.loads((folder / "policies.toml").read_text(encoding="utf-8"))
    assert tables["tiny"] == {**tables["careful"], **manifest["best"]["values"]}
    assert tables["tiny"]["style"] == "careful" and tables["tiny"]["heal"] == "pc_first"
    assert "tiny" in load_policies(folder / "policies.toml")


def test_trained_wins_more_than_it_loses_against_careful():
    # Held out (seed 99, 10,000 matches a seat): against careful on both seats trained wins
    # 52.3% and loses 42.9%, +9.4 points (+8.1 .. +10.8). 4,000 matches a seat put the
    # difference some 8 standard errors above 0.
    g = get("encounter")
    wins = losses = 0
    for seat in (0, 1):
        pa, pb = ("trained", "careful") if seat == 0 else ("careful", "trained")
        m = g.load_matchup(FOLDER, "orc-warband", "grey-expedition", pa, pb, {}, [])
        winner = g.run_batch(m, 4000, 5).matches[:, 0]
        wins += int(np.sum(winner == seat))
        losses += int(np.sum(winner == 1 - seat))
    assert wins > losses
