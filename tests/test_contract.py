"""The game contract, checked the same way for every registered game: a new game passes
this file with no edit to it."""

import json
import shutil
import tomllib

import numpy as np
import pytest

from sim.kit import game as registry
from sim.kit.folders import read_folder

from .conftest import ROOT, cardlab

GAMES = registry.names() + registry.templates()
N = 40


def default_matchup(name, policy=None, rules=None):
    g = registry.get(name)
    info = read_folder(ROOT / "decks" / name)
    p = policy or info.policy
    return g, g.load_matchup(info.path, *info.decks, p, p, rules or {}, []), info


def policies(name) -> list[str]:
    text = (ROOT / "decks" / name / "policies.toml").read_text(encoding="utf-8")
    return list(tomllib.loads(text))


ROLES = ("pool", "decks", "options", "params", "schema", "state", "rules", "engine", "policy",
         "reference", "batch", "edits", "exact", "tuning", "lint", "building", "power", "game")


@pytest.mark.parametrize("name", GAMES)
def test_the_package_has_a_file_for_every_role(name):
    """The same file name for the same role in every game (the guide's "Add a game")."""
    have = {p.stem for p in (ROOT / "sim" / name).glob("*.py")}
    assert set(ROLES) <= have, sorted(set(ROLES) - have)


@pytest.mark.parametrize("name", GAMES)
def test_folder_names_its_game_and_is_valid(name):
    info = read_folder(ROOT / "decks" / name)
    assert info.game == name and len(info.decks) == 2
    out = cardlab("check", str(ROOT / "decks" / name))
    assert out.returncode == 0, out.stderr
    listing = cardlab("games")
    assert name in listing.stdout


@pytest.mark.parametrize("name", GAMES)
def test_kernel_equals_reference_for_every_pair_of_policies(name):
    """Every policy meets every other from both seats: the reference engine makes its own
    decisions, so a wrong decision in either engine shows here as a different record."""
    names = policies(name)
    g = registry.get(name)
    info = read_folder(ROOT / "decks" / name)
    for i, first in enumerate(names):
        for j, second in enumerate(names):
            k = i * len(names) + j
            m = g.load_matchup(info.path, *info.decks, first, second, {}, [])
            kernel = g.run_batch(m, N, 11 + k, first_match=500 * k, n_log=3)
            reference = g.reference_batch(m, N, 11 + k, first_match=500 * k, n_log=3)
            assert kernel.same_as(reference), (name, first, second)
            assert kernel.matches.shape == (N, len(g.schema.match_columns))
            assert set(kernel.matches[:, 0]) <= {-1, 0, 1}
            assert kernel.card_stats.shape[2] == len(g.schema.all_card_stats)


@pytest.mark.parametrize("name", GAMES)
def test_same_bytes_for_any_thread_count_and_split(name):
    from sim.core import blocks

    g, m, _ = default_matchup(name)
    before = blocks.get_threads()
    try:
        blocks.set_threads(1)
        one = g.run_batch(m, 3 * N, 5, n_log=2)
        blocks.set_threads(2)
        two = g.run_batch(m, 3 * N, 5, n_log=2)
    finally:
        blocks.set_threads(before)
    assert one.same_as(two)
    head, tail = g.run_batch(m, N, 5), g.run_batch(m, 2 * N, 5, first_match=N)
    assert np.array_equal(np.vstack([head.matches, tail.matches]), one.matches)
    for measure in one.hists:
        assert np.array_equal(np.vstack([head.hists[measure], tail.hists[measure]]),
                              one.hists[measure])
    assert np.array_equal(head.card_stats + tail.card_stats, one.card_stats)
    assert not np.array_equal(g.run_batch(m, 3 * N, 6).matches, one.matches)


@pytest.mark.parametrize("name", GAMES)
def test_manifest_round_trip_and_replay(name):
    g, m, _ = default_matchup(name)
    described = json.loads(json.dumps(g.describe(m)))
    for key in ("decks", "policies", "rules", "card_pool"):
        assert key in described
    assert {"ids", "names", "kinds", "sha256"} <= set(described["card_pool"])
    again = g.from_manifest(described)
    assert g.run_batch(again, N, 3).same_as(g.run_batch(m, N, 3))
    rec = g.run_batch(m, N, 3)
    for i in (0, N // 2, N - 1):
        played = g.replay(m, 3, i)
        assert np.array_equal(np.asarray(played.record), rec.matches[i])
        assert len(played.text) > 0


@pytest.mark.parametrize("name", GAMES)
def test_validator_rejects_a_broken_copy(name, tmp_path):
    copy = tmp_path / name
    shutil.copytree(ROOT / "decks" / name, copy)
    rules = copy / "rules.toml"
    lines = rules.read_text(encoding="utf-8").splitlines()
    rules.write_text("\n".join([*lines, "no_such_option = 3"]) + "\n", encoding="utf-8")
    out = cardlab("check", str(copy))
    assert out.returncode == 2
    assert f"rules.toml:{len(lines) + 1}:" in out.stderr and "no_such_option" in out.stderr
    assert "Traceback" not in out.stderr
    sim = cardlab("simulate", "--folder", str(copy), "-n", "10", "--results", str(tmp_path))
    assert sim.returncode == 2 and "no_such_option" in sim.stderr


@pytest.mark.parametrize("name", GAMES)
def test_a_broken_draft_deck_blocks_only_check(name, tmp_path):
    """A deck no command plays, naming a card the pool lacks: `cardlab check` names its
    line, exit 2; simulate plays the default decks; a deck that is not there is told as
    such, not by the draft's problem."""
    copy = tmp_path / name
    shutil.copytree(ROOT / "decks" / name, copy)
    info = read_folder(copy)
    lines = (copy / f"{info.decks[0]}.deck").read_text(encoding="utf-8").splitlines()
    (copy / "draft.deck").write_text("\n".join([*lines, "1 No Such Card"]) + "\n",
                                     encoding="utf-8")
    out = cardlab("check", str(copy))
    assert out.returncode == 2
    assert f"draft.deck:{len(lines) + 1}: unknown card 'No Such Card'" in out.stderr
    sim = cardlab("simulate", "--folder", str(copy), "-n", "50", "--results", str(tmp_path),
                  "-q")
    assert sim.returncode == 0, sim.stderr
    missing = cardlab("simulate", "nosuch", info.decks[1], "--folder", str(copy), "-n", "50",
                      "--results", str(tmp_path))
    assert missing.returncode == 2
    assert "nosuch:0: no such deck" in missing.stderr and "draft.deck" not in missing.stderr


def line_after(lines: list[str], table: str, key: str) -> int:
    """The index of the first `key = ...` line after the [table] header."""
    head = lines.index(f"[{table}]")
    return next(i for i in range(head + 1, len(lines)) if lines[i].startswith(f"{key} ="))


@pytest.mark.parametrize("name", GAMES)
def test_game_file_is_checked_with_the_names_it_gives(name, tmp_path):
    """game.toml checked as a game file; a deck or policy it names that the folder lacks
    is told at its key's line, by `cardlab check` and by the command that plays it."""
    shipped = cardlab("check", str(ROOT / "decks" / name / "game.toml"))
    assert shipped.returncode == 0, shipped.stderr
    assert "game file valid" in shipped.stdout
    copy = tmp_path / name
    shutil.copytree(ROOT / "decks" / name, copy)
    info = read_folder(copy)
    path = copy / "game.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    typos = {}
    for table, key, word in (("defaults", "decks", info.decks[1]),
                             ("defaults", "policy", info.policy),
                             ("defaults", "trained", info.trained),
                             ("field", "decks", info.field[-1])):
        at = line_after(lines, table, key)
        assert f'"{word}"' in lines[at]
        lines[at] = lines[at].replace(f'"{word}"', f'"{word}x"')
        typos[f"{word}x"] = at + 1
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for target in (copy, path):
        out = cardlab("check", str(target))
        assert out.returncode == 2
        for typo, line in typos.items():
            assert any(ln.startswith(f"{path}:{line}:") and repr(typo) in ln
                       for ln in out.stderr.splitlines()), (typo, out.stderr)
    sim = cardlab("simulate", "--folder", str(copy), "-n", "20", "--results", str(tmp_path))
    assert sim.returncode == 2
    assert f"{path}:{typos[info.decks[1] + 'x']}:" in sim.stderr
    meta = cardlab("meta", "--folder", str(copy), "--policy", policies(name)[0], "-n",
                   "20", "--results", str(tmp_path))
    assert meta.returncode == 2
    assert f"{path}:{typos[info.field[-1] + 'x']}:" in meta.stderr
    lines[line_after(lines, "defaults", "policy")] = "policy = greedy"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = cardlab("check", str(copy))
    assert out.returncode == 2
    assert f"{path}:{line_after(lines, 'defaults', 'policy') + 1}: not valid TOML" in out.stderr


@pytest.mark.parametrize("name", GAMES)
def test_simulate_report_and_experiments(name, tmp_path):
    from analysis.load import load_run
    from analysis.report import build_report
    from sim.experiments.designs import ablation, sweep
    from sim.runner.run import simulate

    g, m, _ = default_matchup(name)
    res = simulate(g, m, 600, 2, results=tmp_path, run_id="run", chunk_size=250,
                   backend="serial")
    run = load_run(res.run.path)
    assert len(run.matches) == 600 and run.manifest["game"] == name
    other = simulate(g, m, 600, 2, results=tmp_path, run_id="loky", chunk_size=150,
                     backend="loky", workers=2)
    again = load_run(other.run.path)
    for table in ("matches", "histograms", "cards"):
        assert getattr(again, table).equals(getattr(run, table)), table
    from analysis.verdicts import VERDICTS
    from sim.experiments.verdict_run import for_run
    from sim.experiments.verdicts import Precision

    verdicts = for_run(res.run.path, Precision(start=100, max_matches=200, screen=400),
                       field_matches=200)
    assert set(verdicts.verdict) <= set(VERDICTS) and len(verdicts)
    assert set(verdicts.kind) <= set(g.schema.flag_kinds or verdicts.kind)
    # Each card judged against par under a named policy, with a margin and a detectable size.
    priced = verdicts[verdicts.verdict != "no par"]
    assert len(priced) and priced.policy.str.len().gt(0).all() and (priced.margin >= 0).all()
    assert (priced.detectable > 0).all() and priced.par.str.len().gt(0).all()
    # Every sample folder has a field: each priced card's worth against it, weighted by the
    # field's Nash mix (weights that sum to 1).
    assert priced.field_worth.notna().all()
    assert sum(verdicts.attrs["field"].values()) == pytest.approx(1.0)
    html, _ = build_report(res.run.path)
    text = html.read_text(encoding="utf-8")
    assert "paired matches" in text
    for section in ("Headline", "Matchup", "Cards (descriptive)", "Card verdicts (causal)",
                    "Exact check"):
        assert f"<h2>{section}</h2>" in text
    out = cardlab("simulate", "--folder", name, "-n", "200", "--results", str(tmp_path), "-q")
    assert out.returncode == 0, out.stderr
    assert "95% interval" in out.stdout
    variants = g.value_edits(m, None)
    assert variants and all(v.matchup is not m for v in variants)
    abl = ablation(g, m, 100, 1, results=tmp_path, run_id="abl")
    assert len(abl) and abl.p_adjusted.between(0, 1).all()
    vary, spec = next(iter(g.sweeps.items()))
    card = variants[0].card if spec.needs_card else None
    df = sweep(g, m, 0, vary, list(spec.values[:2]), 100, 1, results=tmp_path, run_id="sw",
               options={"card": card})
    assert len(df) == 2 and df.rate.between(0, 1).all()


@pytest.mark.parametrize("name", GAMES)
def test_a_copies_sweep_skips_the_points_it_cannot_build(name, tmp_path):
    """More copies than a deck has room for: that point is listed as skipped with why,
    the others are played; only when no point can be played is it an error."""
    from sim.core.problems import InputError
    from sim.experiments.designs import sweep

    g, m, _ = default_matchup(name)
    card = next(v.card for v in g.ablations(m) if v.seat == 0)  # one the deck holds
    df = sweep(g, m, 0, "copies", [1, 999], 40, 1, results=tmp_path, run_id="cp",
               options={"card": card})
    assert df.value.tolist() == [1] and df.n.tolist() == [40]
    skipped = df.attrs["skipped"]
    assert skipped.item.tolist() == ["copies=999"] and "999 copies" in skipped.reason[0]
    with pytest.raises(InputError, match="no value builds a legal deck"):
        sweep(g, m, 0, "copies", [999], 40, 1, results=tmp_path, run_id="none",
              options={"card": card})
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize("name", GAMES)
def test_policies_file_problems_name_their_lines(name, tmp_path):
    """A top-level value that is no [table], and an unknown setting inside a policy: both
    told with their lines by `cardlab check`, exit 2."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "decks" / name, folder)
    path = folder / "policies.toml"
    text = path.read_text(encoding="utf-8")
    first = policies(name)[0]
    head = text.index(f"[{first}]")
    line_of_table = text[:head].count("\n") + 1
    path.write_text("stray = 1\n" + text[:head] + f"[{first}]\nno_such_setting = 1\n"
                    + text[head + len(f"[{first}]") + 1:], encoding="utf-8")
    out = cardlab("check", str(folder))
    assert out.returncode == 2
    assert f"{path}:1: policy 'stray': expected a [table]" in out.stdout + out.stderr
    said = [ln for ln in (out.stdout + out.stderr).splitlines() if "no_such_setting" in ln]
    assert said and f"{path}:{line_of_table + 2}:" in said[0], said


@pytest.mark.parametrize("name", GAMES)
def test_a_setting_of_the_wrong_type_is_told_at_its_own_line(name, tmp_path):
    """A number the trained policy's table holds, given a word instead: `cardlab check`
    names the file and that setting's line (not its table's), exit 2."""
    folder = tmp_path / name
    shutil.copytree(ROOT / "decks" / name, folder)
    path = folder / "policies.toml"
    trained = read_folder(folder).trained
    setting = registry.get(name).tuning.params(folder, trained)[0].name
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines.index(f"[{trained}]")
    end = next((i for i in range(head + 1, len(lines)) if lines[i].startswith("[")),
               len(lines))
    at = next((i for i in range(head + 1, end) if lines[i].split("=")[0].strip() == setting),
              None)
    if at is None:
        at = head + 1
        lines.insert(at, "")
    lines[at] = f'{setting} = "a word"'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = cardlab("check", str(folder))
    assert out.returncode == 2
    said = [ln for ln in (out.stdout + out.stderr).splitlines() if setting in ln]
    assert said and f"{path}:{at + 1}:" in said[0], said


# Every pair of policies at two seats, and each policy at the most seats the game has, as
# sha256 of the records; run once with bounds checks on and once without.
_RECORDS = """
import hashlib, sys, tomllib
from pathlib import Path
from sim.kit import game as registry
from sim.kit.folders import read_folder
name, root = sys.argv[1], Path(sys.argv[2])
g, info = registry.get(name), read_folder(root / "decks" / name)
names = list(tomllib.loads((root / "decks" / name / "policies.toml").read_text()))
h = hashlib.sha256()
tables = [({}, a, b) for a in names for b in names]
if g.seats[1] > 2:
    tables += [({"players": g.seats[1]}, a, a) for a in names]
for k, (rules, a, b) in enumerate(tables):
    m = g.load_matchup(info.path, *info.decks, a, b, rules, [])
    r = g.run_batch(m, 150, 11 + k, n_log=2)
    for part in (r.matches, r.card_stats, r.log, r.log_n):
        h.update(part.tobytes())
print(h.hexdigest())
"""


@pytest.mark.parametrize("name", GAMES)
def test_the_kernel_reads_inside_its_arrays_and_never_from_the_end(name, tmp_path):
    """Every pair of policies (and the largest table) played with numba's bounds checks on
    (CARDLAB_BOUNDSCHECK=1, compiled afresh): no rule reads or writes outside an array, nor
    at a negative index, which the rules' pipeline does not wrap around to the end
    (sim.core.pipeline): a rule that did would end the run here (numba raises IndexError;
    inside the kernel's threads the process dies of it). The records are those of the
    kernel compiled without the checks."""
    import os
    import subprocess
    import sys

    def records(**env):
        out = subprocess.run([sys.executable, "-c", _RECORDS, name, str(ROOT)],
                             env=dict(os.environ, PYTHONPATH=str(ROOT), **env), cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, f"exit {out.returncode}: {out.stderr[-3000:]}"
        return out.stdout.strip()

    checked = records(CARDLAB_BOUNDSCHECK="1", CARDLAB_CACHE_DIR=str(tmp_path))
    assert len(checked) == 64 and checked == records()
