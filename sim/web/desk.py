"""One designer's desk in the workbench: a game folder's cards and decks as edited, checked by
the validator of `cardlab check`, played as a paired what-if against the unchanged folder on the
same seeds into ordinary run folders, and saved as a diff beside a patched copy. It knows no
web framework: the page (sim/web/page.py) shows it, the tests drive it directly too."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from analysis.load import load_run
from analysis.report import survival_figure
from analysis.summary import headline_counts
from sim.core.problems import InputError, Problem, told_as
from sim.experiments.comparisons import diff_runs
from sim.kit import game as registry
from sim.kit.folders import folder_policies, read_folder
from sim.kit.patch import patched_csv, write_texts
from sim.kit.variants import cards_in_play
from sim.store.outputs import new_folder
from sim.store.runs import results_in
from sim.store.state import run_state
from sim.web.decklines import deck_lines, with_counts

SCRATCH = ".workbench"  # under the results folder: the edited folders the runs were played from
CARDS = "cards.csv"


class Cancelled(Exception):
    """The designer pressed Cancel; the run stopped after its current chunk, resumable."""


@dataclass
class Choice:
    """What the designer picked: the seats' decks (A, B, then C, D ... where more play), the
    policies of A and of B (and the seats after it), rule options that differ from the
    folder's, the match count and the seed."""

    decks: list[str]
    policy_a: str
    policy_b: str
    rules: dict = field(default_factory=dict)
    matches: int = 2000
    seed: int = 1

    def cli(self, folder: Path) -> str:
        """The `cardlab simulate` line that plays this choice from `folder`."""
        rules = "".join(f" --rules {k}={v}" for k, v in self.rules.items())
        table = f" --table {','.join(self.decks[2:])}" if len(self.decks) > 2 else ""
        return (f"cardlab simulate {self.decks[0]} {self.decks[1]} --folder {folder}"
                f" --policy-a {self.policy_a} --policy-b {self.policy_b}{rules}{table}"
                f" -n {self.matches} --seed {self.seed}")


@dataclass
class Played:
    """A what-if: the two run folders and what the page shows of them."""

    baseline: Path
    variant: Path
    rates: pd.DataFrame  # quantity, baseline, baseline_lo/hi, variant, variant_lo/hi, n
    change: pd.DataFrame  # cardlab diff of the two runs: item, delta, lo, hi, p_adjusted
    command: str  # the command line that replays the variant
    seconds: float
    unplayed: tuple[str, ...] = ()  # edited cards no deck of the choice holds: edits moving nothing


class Desk:
    """A designer's session: the folder as shipped, the edits so far, the runs played."""

    def __init__(self, folder: str | Path, results: str | Path = "results"):
        self.info = read_folder(folder)
        self.folder = self.info.path
        self.game = registry.get(self.info.game)
        self.results = Path(results)
        self.shipped = {CARDS: (self.folder / CARDS).read_text(encoding="utf-8")}
        for deck in sorted(self.folder.glob("*.deck")):
            self.shipped[deck.name] = deck.read_text(encoding="utf-8")
        self.cards = pd.read_csv(self.folder / CARDS, dtype=str, keep_default_na=False)
        self.edited = self.cards.copy()
        self.decks = {name[:-5]: deck_lines(text) for name, text in self.shipped.items()
                      if name.endswith(".deck")}
        self.counts = {name: df.copy() for name, df in self.decks.items()}
        self.policies = list(dict.fromkeys([self.info.policy, *folder_policies(self.folder)]))
        self.runs: list[dict] = []  # this session's runs, newest last
        self._baselines: dict[tuple, Path] = {}
        self.cancel = threading.Event()
        self.progress = (0, 0, "")  # (done, total, what): read by the page while a run plays

    # Edits ------------------------------------------------------------------------------

    def set_cell(self, row: int, column: str, text: str) -> None:
        """One card cell as the designer typed it (checked when the folder is written)."""
        if column == "id":
            raise InputError([Problem(CARDS, row + 2, "a card's id names it in the decks; "
                                      "it is not edited here")])
        self.edited.loc[row, column] = str(text).strip()

    def set_copies(self, deck: str, row: int, copies: int) -> None:
        self.counts[deck].loc[row, "copies"] = int(copies)

    def card_edits(self) -> dict[str, str]:
        """{"CARD.COLUMN": text} of every card cell that differs from the shipped folder."""
        out = {}
        for col in self.cards.columns:
            for i in self.cards.index[self.cards[col] != self.edited[col]]:
                out[f"{self.cards.id[i]}.{col}"] = self.edited.loc[i, col]
        return out

    def deck_edits(self) -> dict[str, dict[str, int]]:
        """{deck: {card: copies}} of every count that differs from the shipped deck."""
        out = {}
        for name, df in self.decks.items():
            moved = df.copies != self.counts[name].copies
            if moved.any():
                out[name] = dict(zip(df.card[moved], self.counts[name].copies[moved].astype(int),
                                     strict=True))
        return out

    def edits(self) -> dict:
        return {"cards": self.card_edits(), "decks": self.deck_edits()}

    def texts(self) -> dict[str, str]:
        """The folder's edited files by name: cards.csv and every deck."""
        cells = {key: {key.rpartition(".")[2]: text} for key, text in self.card_edits().items()}
        out = {CARDS: patched_csv(self.folder / CARDS, cells) if cells else self.shipped[CARDS]}
        for name, df in self.decks.items():
            moved = {int(n): int(c) for n, c, o in zip(df.line, self.counts[name].copies,
                                                      df.copies, strict=True) if c != o}
            out[f"{name}.deck"] = with_counts(self.shipped[f"{name}.deck"], moved)
        return out

    def problems(self) -> list[Problem]:
        """The validator's problems with the edited folder (`cardlab check` on it), checked
        in a temporary copy: nothing is written to the results folder."""
        if not any(self.edits().values()):
            return self.check(self.folder)
        with tempfile.TemporaryDirectory() as tmp:
            copy = self._write(Path(tmp) / self.folder.name)
            return [Problem(str(self.folder / Path(p.path).relative_to(copy))
                            if Path(p.path).is_relative_to(copy) else p.path, p.line,
                            p.message) for p in self.check(copy)]

    def _write(self, dest: Path) -> Path:
        """A copy of the shipped folder with the edited files, at dest."""
        shutil.copytree(self.folder, dest, ignore=shutil.ignore_patterns("__pycache__"))
        for name, text in self.texts().items():
            (dest / name).write_text(text, encoding="utf-8")
        return dest

    def edited_folder(self) -> Path:
        """The folder the variant is played from: the shipped one when nothing is edited,
        else a copy named by its content in the results folder, written whole before it is
        used; InputError, writing nothing, when the validator finds a problem."""
        problems = self.problems()
        if problems:
            raise InputError(problems)
        if not any(self.edits().values()):
            return self.folder
        texts = self.texts()
        digest = hashlib.sha256("\0".join(f"{k}\0{v}" for k, v in sorted(texts.items()))
                                .encode()).hexdigest()[:16]
        dest = self.results / SCRATCH / f"{self.game.name}-{digest}"
        if not dest.is_dir():
            tmp = dest.with_name(f".{dest.name}.{threading.get_ident()}")
            shutil.rmtree(tmp, ignore_errors=True)
            self._write(tmp)
            try:
                tmp.rename(dest)
            except OSError:  # another tab wrote the same folder first: the same content
                shutil.rmtree(tmp, ignore_errors=True)
        return dest

    def check(self, folder: Path) -> list[Problem]:
        """The validator's problems with a folder, as `cardlab check FOLDER` reports them:
        its files, and the decks and policies its game.toml names."""
        try:
            _, problems = self.game.check_paths([folder])
            problems = [*problems, *read_folder(folder).problems()]
        except InputError as err:
            problems = err.problems
        return list(problems)

    def problems_by_place(self, problems: list[Problem]) -> dict[tuple[str, int], str]:
        """{(file name, row of its table): messages}: the card row (cards.csv line - 2) or
        the deck row of a problem's line; (file, -1) for a problem of a whole file."""
        out: dict[tuple[str, int], list[str]] = {}
        for p in problems:
            name = Path(p.path).name
            row = -1
            if name == CARDS and p.line >= 2:
                row = p.line - 2
            elif name.endswith(".deck") and name[:-5] in self.decks:
                hit = self.decks[name[:-5]].index[self.decks[name[:-5]].line == p.line]
                row = int(hit[0]) if len(hit) else -1
            out.setdefault((name, row), []).append(p.message)
        return {k: "; ".join(v) for k, v in out.items()}

    # Play -------------------------------------------------------------------------------

    def heard(self, done: int, total: int, what: str, stopped: str) -> None:
        """A long job's progress, for the page to show; Cancelled(`stopped`) once Cancel
        was pressed (every job reports between chunks, pairs or rounds)."""
        self.progress = (done, total, what)
        if self.cancel.is_set():
            raise Cancelled(f"cancelled: {stopped}")

    def matchup(self, folder: Path, choice: Choice):
        """The game's matchup of the choice from a folder (InputError on bad options, a rule
        option's told by its field's name alone: the page has no --rules)."""
        more = {"table": tuple(choice.decks[2:])} if len(choice.decks) > 2 else {}
        with told_as("--rules", ""):
            return self.game.load_matchup(folder, choice.decks[0], choice.decks[1],
                                          choice.policy_a, choice.policy_b,
                                          dict(choice.rules), [], **more)

    def needs_compile(self) -> float | None:
        """Seconds a first compile of the engine is expected to take, None when compiled."""
        # deferred: the runner and the experiments (numba, scipy) load only when a job runs
        from sim.runner.warmup import is_compiled, last_seconds

        if is_compiled(self.game.name):
            return None
        return last_seconds(self.game.name, self.game.compile_seconds)

    def play(self, choice: Choice) -> Played:
        """The paired what-if: the shipped folder and the edited one, the same choice on
        the same seeds, each an ordinary run in the results folder; InputError (nothing run,
        nothing written) when the edited folder or the choice is not valid."""
        start = time.perf_counter()
        base_m = self.matchup(self.folder, choice)
        self.unplayed(choice, base_m)  # edits that move nothing are told before any is written
        folder = self.edited_folder()
        var_m = self.matchup(folder, choice)
        unplayed = self.unplayed(choice, base_m, var_m)
        self.cancel.clear()
        seconds = self.needs_compile()
        if seconds is not None:  # said as the command line says it; the runner compiles
            self.progress = (0, 1, f"compiling the {self.game.title} engine, once on this "
                             f"machine (about {seconds:.0f} s)")
        key = (tuple(choice.decks), choice.policy_a, choice.policy_b,
               tuple(sorted(choice.rules.items())), choice.matches, choice.seed)
        base = self._baselines.get(key)
        if base is None or not (base / "manifest.json").is_file():
            base = self._simulate(base_m, choice, "baseline", self.folder, {}, 0)
            self._baselines[key] = base
        variant = self._simulate(var_m, choice, "variant", folder, self.edits(), choice.matches)
        rates = self.rates(base, variant)
        change = diff_runs(base, variant)
        return Played(base, variant, rates, change, choice.cli(folder),
                      time.perf_counter() - start, unplayed)

    def unplayed(self, choice: Choice, *matchups) -> tuple[str, ...]:
        """The edited cards that no deck of the choice holds and no rule option names (by
        name), in either arm: their edits move no match. InputError (nothing is played)
        when every edit is such, a card or the count of a deck the choice does not seat: a
        zero change there would be no measurement."""
        names = dict(zip(self.cards.id, self.cards.name, strict=True))
        edited = list(dict.fromkeys(key.rpartition(".")[0] for key in self.card_edits()))
        found = [cards_in_play(self.game, m) for m in matchups]
        if None in found:  # a game without deck-building hooks cannot say
            return ()
        held = set().union(*found)
        out = tuple(names[c] for c in edited if c not in held)
        seated = [d for d in self.deck_edits() if d in choice.decks]
        if (edited or self.deck_edits()) and len(out) == len(edited) and not seated:
            what = ([f"{', '.join(out)} (no deck of this matchup holds it and no rule option "
                     "names it)"] if out else [])
            what += [f"the deck {d} (not seated)" for d in self.deck_edits()]
            raise InputError([Problem(CARDS if out else "decks", 0, "nothing to measure: "
                                      f"the edits change {'; '.join(what)}, so the variant "
                                      "would play every match as the baseline")])
        return out

    def _simulate(self, m, choice: Choice, arm: str, folder: Path, edits: dict,
                  before: int) -> Path:
        """One arm into the results folder, its progress shown and Cancel heard between
        chunks; the manifest records the edits, the shipped folder and the folder the arm
        was played from (whose policies its verdicts use)."""
        # deferred: the runner and the experiments (numba, scipy) load only when a job runs
        from sim.runner.run import simulate

        def progress(done, _matches, _n):
            self.heard(before + done, 2 * choice.matches, f"playing the {arm}",
                       f"the {arm} stopped after {done:,} matches")

        run_id = datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + f"-{arm}-" + os.urandom(3).hex()
        # Chunks of about a twentieth of the run: the bar moves and Cancel is heard soon;
        # the records are the same bytes for any chunk size.
        chunk = max(250, -(-choice.matches // 20))
        res = simulate(self.game, m, choice.matches, choice.seed, self.results, run_id,
                       chunk_size=chunk, workers=1, backend="serial", progress=progress,
                       note={"workbench": {"arm": arm, "shipped": str(self.folder),
                                           "folder": str(folder), **edits}})
        self.runs.append({"run": run_id, "arm": arm, "matches": choice.matches,
                          "seed": choice.seed, "decks": " vs ".join(choice.decks),
                          "edits": sum(map(len, edits.values())) if edits else 0})
        return res.run.path

    @staticmethod
    def rates(base: Path, variant: Path) -> pd.DataFrame:
        """Each headline rate of the two runs side by side, with Wilson 95% intervals: the
        rows `cardlab simulate` prints for each."""
        cols = {}
        for arm, path in (("baseline", base), ("variant", variant)):
            manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
            rows, _, _ = headline_counts(path, manifest)
            cols[arm] = rows[["quantity", "n", "rate", "lo", "hi"]].rename(
                columns={"rate": arm, "lo": f"{arm}_lo", "hi": f"{arm}_hi"})
        return cols["baseline"].merge(cols["variant"].drop(columns="n"), on="quantity")

    def resume(self, run_id: str) -> Path:
        """Finish an interrupted run, as `cardlab simulate --resume`; RunBusy when another
        tab or command line is writing it."""
        # deferred: the runner and the experiments (numba, scipy) load only when a job runs
        from sim.runner.run import simulate

        self.cancel.clear()

        def progress(done, matches, _n):
            self.heard(done, matches, f"resuming {run_id}",
                       f"{run_id} stopped after {done:,} matches")

        return simulate(None, None, 0, 0, self.results, resume=run_id,
                        progress=progress).run.path

    def interrupted(self) -> list[str]:
        """Run ids in the results folder that stopped before they finished (not those
        still being written)."""
        return [m["run_id"] for path, m in results_in(self.results)
                if "run_id" in m and m.get("game") == self.game.name
                and run_state(path, m).status == "interrupted"]

    # See --------------------------------------------------------------------------------

    def verdicts(self, run: Path, start: int = 2000, most: int = 64_000,
                 field_matches: int = 0) -> pd.DataFrame:
        """The card verdicts of a run's matchup, as `cardlab verdicts RUN` makes them."""
        # deferred: the runner and the experiments (numba, scipy) load only when a job runs
        from sim.experiments.verdict_run import for_run
        from sim.experiments.verdicts import Precision

        def said(rounds, n, still, played):
            self.heard(rounds + 1, Precision(start, most).looks, f"verdicts: round "
                       f"{rounds + 1}, {still} cards open, {played:,} matches",
                       "the verdicts stopped")

        self.cancel.clear()
        manifest = json.loads((Path(run) / "manifest.json").read_text(encoding="utf-8"))
        folder = manifest.get("workbench", {}).get("folder", str(self.folder))
        return for_run(run, Precision(start, most), said, folder=folder,
                       field_matches=field_matches)

    def field(self, choice: Choice, matches: int):
        """The field of the edited folder (its game.toml's [field]), as `cardlab meta`
        plays it: (result, meta folder)."""
        # deferred: the runner and the experiments (numba, scipy) load only when a job runs
        from sim.experiments.meta import Field, meta

        folder = self.edited_folder()
        fld = Field(self.game, folder, list(self.info.field), choice.policy_a,
                    dict(choice.rules))

        def progress(done, total):
            self.heard(done, total, "playing the field", "the field stopped")

        self.cancel.clear()
        with told_as("--rules", ""):
            return meta(fld, matches, choice.seed, self.results, workers=1, backend="serial",
                        progress=progress)

    def survival(self, run: Path):
        """The report's survival figures of a run (one per declared histogram)."""
        loaded = load_run(run)
        return [survival_figure(loaded, measure, spec)
                for measure, spec in loaded.schema.get("histograms", {}).items()]

    def diff(self, run_a: str, run_b: str) -> pd.DataFrame:
        """`cardlab diff` of two runs of the results folder."""
        return diff_runs(self.results / run_a, self.results / run_b)

    # Keep -------------------------------------------------------------------------------

    def save(self, overwrite: bool = False) -> tuple[Path, str]:
        """The edits as a diff and a patched copy of the folder, as `cardlab balance`
        writes them, in a new folder of the results; the shipped files too only with
        `overwrite` (the page asks first). (copy, diff)"""
        problems = self.problems()
        if problems:
            raise InputError(problems)
        # Dated, with a random tail: two tabs saving in the same second get two folders.
        dest = new_folder(self.results, datetime.now(UTC).strftime("workbench-%Y%m%d-%H%M%S-")
                          + os.urandom(3).hex(), "workbench")
        copy, diff = write_texts(self.folder, self.texts(), dest, overwrite)
        if overwrite:  # the shipped folder is now the edited one: its baselines are old
            self._baselines.clear()
            self.shipped = {**self.shipped, **self.texts()}
            self.cards = self.edited.copy()
            self.decks = {name: df.copy() for name, df in self.counts.items()}
        return copy, diff
