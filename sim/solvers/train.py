"""Policy training: CMA-ES over a policy's numeric weights and habits for the best win rate
against a fixed opponent, common random numbers inside each generation, a verdict on fresh
seeds, resumable from its folder, the tuned policy appended to the folder's policies.toml (the
source policy's table with the tuned values in place)."""

from __future__ import annotations

import json
import os
import pickle
import textwrap
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.problems import InputError, Problem
from sim.core.stats import paired_difference, wilson
from sim.kit import legality
from sim.kit.game import Game, Param
from sim.kit.played import played, require_unchanged
from sim.store.runs import check_run_id

TRAIN, HOLDOUT = 1, 2  # purposes of derived seeds: a generation's matches, the verdict's
STATE = "state.pkl"


def derive_seed(seed: int, purpose: int, index: int) -> int:
    """A master seed's independent child seed for one purpose and index (below 2**63)."""
    words = np.random.SeedSequence([seed, purpose, index]).generate_state(2, np.uint32)
    return int((int(words[0]) << 32 | int(words[1])) >> 1)


@dataclass(frozen=True)
class Space:
    """A policy's trainable parameters as the unit cube CMA-ES searches."""

    params: tuple[Param, ...]

    def encode(self, values: dict) -> np.ndarray:
        x = [(values[p.name] - p.lo) / (p.hi - p.lo) if p.hi > p.lo else 0.5
             for p in self.params]
        return np.clip(np.array(x, dtype=np.float64), 0.0, 1.0)

    def decode(self, x) -> dict:
        """Values as the policies file will hold them: whole numbers rounded, floats to
        four significant digits, so that what is evaluated is what is written."""
        out = {}
        for p, u in zip(self.params, np.clip(x, 0.0, 1.0), strict=True):
            v = p.lo + float(u) * (p.hi - p.lo)
            if p.kind == "bool":
                out[p.name] = bool(v >= 0.5 * (p.lo + p.hi))
            elif p.kind == "int":
                out[p.name] = int(round(v))
            else:
                out[p.name] = float(f"{v:.4g}")
        return out

    def start(self) -> dict:
        return self.decode(self.encode({p.name: p.value for p in self.params}))


@dataclass
class Trainer:
    """Plays a policy's candidate settings against the fixed opponent on the given seats."""

    game: Game
    folder: Path
    base: object  # the matchup with the opponent on both seats
    policy: str
    name: str
    seats: tuple[int, ...]
    matches: int

    def wins(self, values: dict, seed: int, n: int | None = None) -> np.ndarray:
        """0/1 per match of the candidate, seat by seat, the same matches for every one."""
        hooks = self.game.tuning
        out = []
        for seat in self.seats:
            m = hooks.with_policy(self.base, seat, self.folder, self.policy, values, self.name)
            out.append(self.game.run_batch(m, n or self.matches, seed).wins(seat))
        return np.concatenate(out).astype(np.float64)


def hooks_of(game: Game):
    if game.tuning is None:
        raise InputError([Problem("train", 0, f"{game.name} does not list its policies' "
                                  "parameters (no tuning hook in its Game)")])
    return game.tuning


def start(game: Game, folder: Path, base, policy: str, name: str, seats, matches: int,
          popsize: int, sigma: float, seed: int, path: Path, manifest: dict) -> dict:
    """A new training state in `path` (CMA-ES from the policy's own settings)."""
    # deferred: cma loads only when training runs
    import cma

    legality.require(game, base, "train")  # the decks it trains on are ones the rules allow
    params = hooks_of(game).params(folder, policy)
    if not params:
        raise InputError([Problem("POLICY", 0, f"policy {policy!r} has no trainable "
                                  "parameters")])
    space = Space(tuple(params))
    np.random.seed(derive_seed(seed, 0, 0) % 2**32)
    es = cma.CMAEvolutionStrategy(space.encode(space.start()), sigma, {
        "bounds": [0.0, 1.0], "popsize": popsize, "seed": derive_seed(seed, 0, 1) % 2**31 + 1,
        "verbose": -9, "CMA_stds": None})
    state = {"es": es, "space": space, "generation": 0, "best": None, "rows": [],
             "np_random": np.random.get_state()}
    path.mkdir(parents=True)
    save(path, state, manifest)
    return state


def save(path: Path, state: dict, manifest: dict) -> None:
    """State and manifest, each written under a temporary name and renamed."""
    tmp = path / f".{STATE}.tmp"
    tmp.write_bytes(pickle.dumps(state))
    os.replace(tmp, path / STATE)
    tmp = path / ".manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, default=str) + "\n")
    os.replace(tmp, path / "manifest.json")


def load(path: Path) -> tuple[dict, dict]:
    try:
        manifest = json.loads((path / "manifest.json").read_text())
        state = pickle.loads((path / STATE).read_bytes())
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, "no training run here to resume")]) from None
    return state, manifest


def run_generations(trainer: Trainer, state: dict, generations: int, seed: int, path: Path,
                    manifest: dict, progress=None) -> dict:
    """Generations state["generation"] .. generations - 1: each samples candidates, plays
    them all on that generation's seed, tells CMA-ES, keeps the best so far, and saves."""
    es, space = state["es"], state["space"]
    np.random.set_state(state["np_random"])
    while state["generation"] < generations:
        g = state["generation"]
        xs = es.ask()
        candidates = [space.decode(x) for x in xs]
        s = derive_seed(seed, TRAIN, g)
        rates = []
        for i, values in enumerate(candidates):
            w = trainer.wins(values, s)
            rates.append(float(w.mean()))
            state["rows"].append({"generation": g, "candidate": i, "k": int(w.sum()),
                                  "n": len(w), "rate": rates[-1], **values})
            best = state["best"]
            if best is None or rates[-1] > best["rate"]:
                state["best"] = {"values": values, "rate": rates[-1], "k": int(w.sum()),
                                 "n": len(w), "generation": g}
        es.tell(xs, [-r for r in rates])
        state["generation"] = g + 1
        state["np_random"] = np.random.get_state()
        save(path, state, manifest)
        if progress:
            progress(g, generations, max(rates), float(np.mean(rates)), state["best"]["rate"])
    return state


def verdict(trainer: Trainer, state: dict, holdout: int, seed: int) -> pd.DataFrame:
    """The winner and the starting settings on fresh seeds never trained on, paired, with
    the winner's train rate beside them."""
    best = state["best"]
    s = derive_seed(seed, HOLDOUT, 0)
    won = trainer.wins(best["values"], s, holdout)
    was = trainer.wins(state["space"].start(), s, holdout)
    rows = []
    for item, k, n in (("train (winner, its generation's seeds)", best["k"], best["n"]),
                       ("held-out (winner, fresh seeds)", won.sum(), len(won)),
                       ("held-out (starting settings, same fresh seeds)", was.sum(),
                        len(was))):
        lo, hi = wilson(k, n)
        rows.append({"item": item, "k": int(k), "n": int(n), "rate": k / n, "lo": float(lo),
                     "hi": float(hi)})
    d = paired_difference(was, won)
    rows.append({"item": "held-out gain over the starting settings (paired)", "k": 0,
                 "n": d["n"], "rate": d["delta"], "lo": d["lo"], "hi": d["hi"]})
    return pd.DataFrame(rows)


def toml_value(v) -> str:
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return repr(float(v))


def write_policy(game: Game, folder: Path, name: str, values: dict, note: list[str],
                 base: str | None = None) -> Path:
    """Append [name] to the folder's policies.toml under comment lines `note`: the fields
    of policy `base` (the one trained: its kind and the settings training does not move)
    with `values` in place, which is what the candidates were played as; atomic, and the
    file is put back as it was if the game cannot read it."""
    path = Path(folder) / "policies.toml"
    before = path.read_text(encoding="utf-8")
    known = tomllib.loads(before)
    require_new_name(folder, name, known)
    table = {**(known.get(base, {}) if base else {}), **values}
    lines = ["", *(f"# {line}" for line in note), f"[{name}]",
             *(f"{k} = {toml_value(v)}" for k, v in table.items())]
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(before.rstrip("\n") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    try:
        hooks_of(game).params(folder, name)
    except Exception:
        tmp.write_text(before, encoding="utf-8")
        os.replace(tmp, path)
        raise
    return path


def require_new_name(folder: Path, name: str, known: dict | None = None) -> None:
    """InputError when the folder's policies.toml (`known`: as read already) has a policy
    `name`, which training would write: said before any training, with the ways out."""
    path = Path(folder) / "policies.toml"
    if known is None:
        known = tomllib.loads(path.read_text(encoding="utf-8"))
    if name in known:
        raise InputError([Problem(str(path), 0, f"policy {name!r} exists already: pick "
                                  "another --name, or --no-write to train without writing "
                                  "it (the tuned settings stay in the run's manifest); to "
                                  f"replace it, delete its [{name}] table from the file "
                                  "first")])


def tuned_policies(folder: Path) -> list[str]:
    """Policies of the folder's policies.toml that `cardlab train` wrote."""
    names = []
    marked = False
    for raw in (Path(folder) / "policies.toml").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("# cardlab train:"):
            marked = True
        elif line.startswith("[") and line.endswith("]"):
            if marked:
                names.append(line.strip("[] "))
            marked = False
    return names


def files_played(game: Game, folder: Path, base, policy: str) -> dict:
    """What a training run plays of its folder's files (sim.kit.played): the matchup with
    the opponent on both seats, and the trained policy's own settings, the start of the
    search and the settings it does not move."""
    trainee = hooks_of(game).with_policy(base, 0, folder, policy, {}, policy)
    return played(game, folder, [base, trainee])


def new_id(kind: str) -> str:
    return datetime.now(UTC).strftime(f"{kind}-%Y%m%d-%H%M%S")


def train(game: Game, folder: Path, base, policy: str, opponent: str, name: str,
          seats=(0, 1), matches: int = 500, popsize: int = 8, generations: int | None = None,
          sigma: float = 0.1, holdout: int = 10_000, seed: int = 1, results="results",
          run_id: str | None = None, resume: bool = False, write: bool = True,
          setup: dict | None = None, progress=None) -> tuple[pd.DataFrame, dict]:
    """Train `policy` against `opponent` (base: the matchup with the opponent on both
    seats) into results/<run_id>/, or resume that folder; then the held-out verdict and,
    with `write`, the tuned policy appended to the folder's policies.toml. `generations`:
    in all (10 by default); a resume goes on to the run's own count unless given, and one
    below the generations it has trained already trains no more (the best of those is
    checked and written). A resume is refused when the folder's files changed what the
    run plays since it began."""
    if not sigma > 0:  # a step of 0 does not move (cma divides by it); below 0, no step
        raise InputError([Problem("--sigma", 0, f"a step above 0, got {sigma}")])
    run_id = check_run_id(run_id or new_id("train"))
    path = Path(results) / run_id
    folder = Path(folder)
    if write:  # refused now, not after the training it would have written
        require_new_name(folder, name)
    if resume:
        state, manifest = load(path)
        require_unchanged(manifest.get("from_files"), files_played(game, folder, base,
                                                               manifest["policy"]), path)
        # Generations trained cannot be taken back: fewer asked for than there are, none more.
        generations = max(state["generation"], manifest["generations"] if generations is None
                          else generations)
        manifest["generations"] = generations
        manifest["name"] = name  # only the name written: a resume may change it
    else:
        generations = 10 if generations is None else generations
        if path.exists():
            raise InputError([Problem(str(path), 0, "exists already; resume it or pick "
                                      "another --run-id")])
        manifest = {"kind": "train", "game": game.name, "run_id": run_id,
                    "created": datetime.now(UTC).isoformat(timespec="seconds"),
                    "folder": str(folder), "decks": [d.name for d in base.decks],
                    "policy": policy, "opponent": opponent, "name": name,
                    "seats": list(seats), "matches": matches, "popsize": popsize,
                    "generations": generations, "sigma": sigma, "holdout": holdout,
                    "seed": seed, "setup": setup or {}, "status": "running",
                    "from_files": files_played(game, folder, base, policy)}
        state = start(game, folder, base, policy, name, seats, matches, popsize, sigma, seed,
                      path, manifest)
    trainer = Trainer(game, folder, base, policy, name, tuple(manifest["seats"]),
                      manifest["matches"])
    state = run_generations(trainer, state, generations, manifest["seed"], path, manifest,
                            progress)
    table = verdict(trainer, state, manifest["holdout"], manifest["seed"])
    pd.DataFrame(state["rows"]).to_parquet(path / "generations.parquet", index=False)
    table.to_parquet(path / "verdict.parquet", index=False)
    best = state["best"]
    manifest.update({"status": "complete", "best": best, "verdict": table.to_dict("records")})
    if write:
        rows = table.set_index("item")
        tr, ho = rows.iloc[0], rows.iloc[1]
        note = textwrap.wrap(
            f"cardlab train: {manifest['policy']} tuned against {manifest['opponent']} on "
            f"{' vs '.join(manifest['decks'])}, seats {manifest['seats']}, seed "
            f"{manifest['seed']}; CMA-ES, {generations} generations x {manifest['popsize']} "
            f"candidates x {manifest['matches']} matches a seat (run {run_id}). Train win "
            f"rate {tr.rate:.4f} [{tr.lo:.4f}, {tr.hi:.4f}] (n {int(tr.n)}); held-out "
            f"{ho.rate:.4f} [{ho.lo:.4f}, {ho.hi:.4f}] (n {int(ho.n)}, fresh seeds).", 86)
        manifest["written"] = str(write_policy(game, folder, manifest["name"], best["values"],
                                               note, manifest["policy"]))
    save(path, state, manifest)
    return table, manifest
