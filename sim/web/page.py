"""The workbench page of one browser tab (Panel): pick a matchup, edit cards and decks, play
a paired what-if with a progress bar and Cancel, see rates, verdicts, the field and the
survival figure, keep runs and save the edits. Every number comes from the desk (desk.py),
which calls the same functions as the command line."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pandas as pd
import panel as pn

from sim.core.problems import InputError
from sim.store.runs import StoreError
from sim.web.desk import CARDS, Cancelled, Desk
from sim.web.pick import Pick

POLL = 0.2  # seconds between looks at a running job's progress


def _number(value) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def _problem_column() -> dict:
    """A table's problem column: wide, wrapped and red, so a message reads in place."""
    return {"widths": {"problem": 300},
            "formatters": {"problem": {"type": "textarea"}},
            "stylesheets": [":host .tabulator-cell[tabulator-field='problem'] "
                            "{color: #b00020; font-weight: 600;}"]}


class Page:
    """One tab's page over its own Desk: two tabs never share edits or runs."""

    def __init__(self, folder: str | Path, results: str | Path, folders: list[str]):
        self.results, self.folders = Path(results), folders
        self.status = pn.pane.Alert("", alert_type="light", css_classes=["status"],
                                    sizing_mode="stretch_width")
        self.bar = pn.indicators.Progress(value=0, max=1, visible=False,
                                          sizing_mode="stretch_width", css_classes=["bar"])
        self.folder_pick = pn.widgets.Select(name="Game folder", options=folders,
                                             value=str(folder))
        self.folder_pick.param.watch(lambda e: self.load(e.new), "value")
        self.body = pn.Column(sizing_mode="stretch_width")
        self.running: asyncio.Future | None = None
        self.played = None
        self.load(str(folder))

    # Building the page ---------------------------------------------------------------------

    def load(self, folder: str) -> None:
        """The page for a game folder: a new desk, every view built from it."""
        self.desk = Desk(folder, self.results)
        info = self.desk.info
        decks = sorted(self.desk.decks)
        self.pick = Pick(self.desk)
        self.play = pn.widgets.Button(name="Play", button_type="primary")
        self.cancel = pn.widgets.Button(name="Cancel", button_type="warning", disabled=True)
        self.play.on_click(self._play)
        self.cancel.on_click(lambda _: self.desk.cancel.set())
        self.edits = pn.pane.Markdown("No edits: the folder as shipped.", css_classes=["edits"])
        self.cards = self._cards_table()
        self.deck_pick = pn.widgets.Select(name="Deck", options=decks, value=info.decks[0])
        self.deck_table = pn.widgets.Tabulator(sizing_mode="stretch_width", height=420,
                                               show_index=False, css_classes=["deck-table"],
                                               **_problem_column())
        self.deck_pick.param.watch(lambda _: self._show_deck(), "value")
        self.deck_table.on_edit(self._copies_edited)
        self._show_deck()
        self.results_view = pn.Column(pn.pane.Markdown("Press **Play** to see the what-if."),
                                      sizing_mode="stretch_width")
        self.tabs = pn.Tabs(("Cards", self.cards), ("Decks", pn.Column(self.deck_pick,
                                                                       self.deck_table)),
                            ("Results", self.results_view), ("Runs", self._runs_view()),
                            ("Save", self._save_view()), dynamic=False)
        pick = self.pick.view(self.folder_pick)
        self.body.objects = [pn.Row(pick, pn.Column(
            pn.Row(self.play, self.cancel, self.bar, sizing_mode="stretch_width"),
            self.status, self.edits, self.tabs, sizing_mode="stretch_width"))]
        self.say(f"{info.title}: {info.path}", "light")

    def _cards_table(self):
        df = self.desk.edited.copy()
        df.insert(0, "problem", "")
        editors = {c: ({"type": "input"} if c not in ("id", "problem") else None)
                   for c in df.columns}
        table = pn.widgets.Tabulator(df, show_index=False, editors=editors, height=460,
                                     frozen_columns=["problem", "id"], layout="fit_data",
                                     sizing_mode="stretch_width", css_classes=["cards-table"],
                                     pagination=None, **_problem_column())
        table.on_edit(self._card_edited)
        return table

    def _show_deck(self) -> None:
        df = self.desk.counts[self.deck_pick.value][["card", "copies"]].copy()
        df.insert(0, "problem", "")
        self.deck_table.editors = {"problem": None, "card": None,
                                   "copies": {"type": "number", "min": 0}}
        self.deck_table.value = df
        self._check()

    # Edits ---------------------------------------------------------------------------------

    def _card_edited(self, event) -> None:
        self.desk.set_cell(event.row, event.column, event.value)
        self._check()

    def _copies_edited(self, event) -> None:
        try:
            copies = int(event.value)
        except (TypeError, ValueError):
            self.say(f"copies must be a whole number, got {event.value!r}", "danger")
            return
        self.desk.set_copies(self.deck_pick.value, event.row, copies)
        self._check()

    def _check(self) -> list:
        """The validator on the edits: each problem beside its card or deck line, and the
        list of edits; nothing is written."""
        problems = self.desk.problems()
        places = self.desk.problems_by_place(problems)
        cards = self.cards.value.copy()
        cards["problem"] = [places.get((CARDS, i), "") for i in range(len(cards))]
        self.cards.value = cards
        deck = self.deck_table.value.copy()
        name = f"{self.deck_pick.value}.deck"
        deck["problem"] = [places.get((name, i), "") for i in range(len(deck))]
        self.deck_table.value = deck
        edits = self.desk.edits()
        lines = [f"`{k} = {v}`" for k, v in edits["cards"].items()]
        lines += [f"`{d}: {c} x{n}`" for d, cs in edits["decks"].items() for c, n in cs.items()]
        self.edits.object = ("Edits: " + ", ".join(lines)) if lines else \
            "No edits: the folder as shipped."
        if problems:
            self.say("Not valid, nothing will run: " + "; ".join(
                f"{Path(p.path).name}:{p.line}: {p.message}" for p in problems), "danger")
        elif lines:
            self.say("Edits valid.", "light")
        return problems

    # Running -------------------------------------------------------------------------------

    def say(self, text: str, kind: str = "light") -> None:
        self.status.object, self.status.alert_type = text, kind

    async def job(self, fn, *args):
        """fn(*args) on a worker thread while the bar follows desk.progress; Cancel enabled
        meanwhile. Returns fn's value, or None after a message when it failed or stopped."""
        if self.running is not None and not self.running.done():
            self.say("A run is already going in this tab.", "warning")
            return None
        self.play.disabled, self.cancel.disabled, self.bar.visible = True, False, True
        self.bar.value, self.desk.progress = 0, (0, 1, "starting")
        loop = asyncio.get_running_loop()
        self.running = loop.run_in_executor(None, fn, *args)
        try:
            while not self.running.done():
                done, total, what = self.desk.progress
                self.bar.max, self.bar.value = max(total, 1), min(done, max(total, 1))
                self.say(f"{what}: {done:,} of {total:,}" if total > 1 else what, "info")
                await asyncio.sleep(POLL)
            return self.running.result()
        except InputError as err:
            self.say("Not run: " + "; ".join(str(p) for p in err.problems), "danger")
        except Cancelled as err:
            self.say(f"{err}. Finished chunks are kept: resume it on the Runs tab or with "
                     "`cardlab simulate --resume RUN`.", "warning")
        except StoreError as err:
            self.say(str(err), "danger")
        finally:
            self.play.disabled, self.cancel.disabled, self.bar.visible = False, True, False
        return None

    async def _play(self, _=None) -> None:
        if self._check():
            return
        choice = self.pick.choice()  # a bad rule option comes back from play as InputError
        played = await self.job(self.desk.play, choice)
        if played is None:
            return
        self.played = played
        self._show_played(played)
        self._show_runs()
        unplayed = (f". No deck of this matchup holds {', '.join(played.unplayed)}: "
                    "those edits move no match." if played.unplayed else "")
        self.say(f"Played {choice.matches:,} matches a side in {played.seconds:.1f} s. "
                 f"Replay the variant: `{played.command}`{unplayed}", "success")

    def _show_played(self, played) -> None:
        # deferred: matplotlib loads only when a figure is drawn
        import matplotlib.pyplot as plt

        rates = played.rates.copy()
        for c in rates.columns[2:]:
            rates[c] = rates[c].map(_number)
        change = played.change[["item", "run_a", "run_b", "delta", "lo", "hi", "p_adjusted",
                                "moved"]].rename(columns={"run_a": "baseline",
                                                          "run_b": "variant"})
        figures = []
        for fig_ax in self.desk.survival(played.variant):
            figures.append(pn.pane.Matplotlib(fig_ax.figure, dpi=90, tight=True,
                                              format="png"))
            plt.close(fig_ax.figure)
        self.verdict_view = pn.Column()
        self.field_view = pn.Column()
        verdicts = pn.widgets.Button(name="Card verdicts of the variant")
        verdicts.on_click(self._verdicts)
        # The matches of `cardlab verdicts --verdict-start/--verdict-max`, its defaults.
        self.verdict_start = pn.widgets.IntInput(name="Verdict start", value=2000, start=2,
                                                 css_classes=["verdict-start"])
        self.verdict_max = pn.widgets.IntInput(name="Verdict max", value=64_000, start=2,
                                               css_classes=["verdict-max"])
        self.field_matches = pn.widgets.IntInput(name="Matches a pair", value=1000, start=10,
                                                 css_classes=["field-matches"])
        fieldb = pn.widgets.Button(name="The field: matrix and Nash mix")
        fieldb.on_click(self._field)
        self.results_view.objects = [
            pn.pane.Markdown(f"### Rates, 95% intervals (n = {int(rates.n.iloc[0]):,} a side)\n"
                             f"baseline `{played.baseline.name}`, variant "
                             f"`{played.variant.name}`"),
            pn.widgets.Tabulator(rates, show_index=False, disabled=True,
                                 css_classes=["rates-table"], sizing_mode="stretch_width"),
            pn.pane.Markdown("### Paired change (variant - baseline), same seeds"),
            pn.widgets.Tabulator(change.round(4), show_index=False, disabled=True,
                                 css_classes=["change-table"], sizing_mode="stretch_width"),
            pn.pane.Markdown("### Survival (the report's figure, variant)"), *figures,
            pn.Row(self.verdict_start, self.verdict_max, verdicts), self.verdict_view,
            pn.Row(self.field_matches, fieldb), self.field_view]
        self.tabs.active = 2

    async def _verdicts(self, _=None) -> None:
        if self.played is None:
            return
        df = await self.job(self.desk.verdicts, self.played.variant,
                            int(self.verdict_start.value), int(self.verdict_max.value))
        if df is not None:
            cols = [c for c in ("deck", "label", "copies", "n", "relative", "relative_lo",
                                "relative_hi", "verdict") if c in df.columns]
            self.verdict_view.objects = [
                pn.pane.Markdown("### Card verdicts (`cardlab verdicts` of the variant run)"),
                pn.widgets.Tabulator(df[cols].round(4), show_index=False, disabled=True,
                                     css_classes=["verdict-table"], height=360,
                                     sizing_mode="stretch_width")]
            self.say("Verdicts done.", "success")

    async def _field(self, _=None) -> None:
        out = await self.job(self.desk.field, self.pick.choice(), int(self.field_matches.value))
        if out is not None:
            result, path = out
            decks = result["decks"].round(4)
            self.field_view.objects = [
                pn.pane.Markdown(f"### The field (`cardlab meta`, {path.name}): effective "
                                 f"number of decks {result['effective_decks']:.2f}"),
                pn.widgets.Tabulator(decks, show_index=False, disabled=True,
                                     css_classes=["field-table"], sizing_mode="stretch_width"),
                pn.pane.PNG(str(path / "heatmap.png"), width=560),
                pn.pane.PNG(str(path / "nash.png"), width=560)]
            self.say("Field played.", "success")

    # Keeping -------------------------------------------------------------------------------

    def _runs_view(self):
        self.runs_table = pn.widgets.Tabulator(show_index=False, disabled=True,
                                               css_classes=["runs-table"],
                                               sizing_mode="stretch_width")
        self.run_a = pn.widgets.Select(name="Run A", options=[])
        self.run_b = pn.widgets.Select(name="Run B", options=[])
        diff = pn.widgets.Button(name="Diff")
        diff.on_click(self._diff)
        self.diff_view = pn.Column()
        self.resume_pick = pn.widgets.Select(name="Interrupted run", options=[],
                                             css_classes=["resume-pick"])
        refresh = pn.widgets.Button(name="Look for interrupted runs")
        refresh.on_click(lambda _: self._show_runs())
        resume = pn.widgets.Button(name="Resume")
        resume.on_click(self._resume)
        self._show_runs()
        return pn.Column(pn.pane.Markdown("### This tab's runs"), self.runs_table,
                         pn.Row(self.run_a, self.run_b, diff), self.diff_view,
                         pn.pane.Markdown("### Finish an interrupted run"),
                         pn.Row(self.resume_pick, refresh, resume))

    def _show_runs(self) -> None:
        runs = pd.DataFrame(self.desk.runs, columns=["run", "arm", "decks", "matches", "seed",
                                                     "edits"])
        self.runs_table.value = runs
        names = list(runs.run)
        self.run_a.options, self.run_b.options = names, names
        if len(names) >= 2:
            self.run_a.value, self.run_b.value = names[-2], names[-1]
        self.resume_pick.options = self.desk.interrupted()

    def _diff(self, _=None) -> None:
        if not (self.run_a.value and self.run_b.value):
            return
        try:
            df = self.desk.diff(self.run_a.value, self.run_b.value)
        except InputError as err:  # two games, or two table sizes
            self.say("Not compared: " + "; ".join(p.message for p in err.problems), "danger")
            return
        self.diff_view.objects = [pn.widgets.Tabulator(
            df[["item", "run_a", "run_b", "delta", "lo", "hi", "p_adjusted", "moved"]].round(4),
            show_index=False, disabled=True, css_classes=["diff-table"],
            sizing_mode="stretch_width")]

    async def _resume(self, _=None) -> None:
        run = self.resume_pick.value
        if not run:
            self.say("No interrupted run chosen.", "warning")
            return
        path = await self.job(self.desk.resume, run)
        if path is not None:
            self.say(f"Resumed and finished {run}.", "success")
        self._show_runs()

    def _save_view(self):
        save = pn.widgets.Button(name="Save", button_type="primary")
        self.overwrite = pn.widgets.Checkbox(
            css_classes=["overwrite"],
            name=f"also overwrite the shipped files in {self.desk.folder}")
        self.confirm = pn.widgets.Button(name=f"Yes, overwrite {self.desk.folder}",
                                         button_type="danger", visible=False)
        self.saved = pn.pane.Markdown("", css_classes=["saved"])
        save.on_click(lambda _: self._save(False))
        self.confirm.on_click(lambda _: self._save(True))
        return pn.Column(pn.pane.Markdown(
            "Save writes the edits as `cards.diff` and a patched copy of the folder into a "
            "new folder of the results; the shipped folder changes only after you confirm."),
            self.overwrite, save, self.confirm, self.saved)

    def _save(self, confirmed: bool) -> None:
        if self.overwrite.value and not confirmed:
            self.confirm.visible = True
            self.say(f"Press the red button to overwrite {self.desk.folder}.", "warning")
            return
        try:
            copy, diff = self.desk.save(overwrite=confirmed and self.overwrite.value)
        except InputError as err:
            self.say("Not saved: " + "; ".join(str(p) for p in err.problems), "danger")
            return
        self.confirm.visible = False
        if confirmed:  # the shipped folder now holds the edits: none are left
            self._check()
        self.saved.object = (f"Saved: patched folder `{copy}`, diff `{copy.parent / 'cards.diff'}`"
                             f"\n\n```diff\n{diff or '(no change)'}\n```")
        self.say(f"Saved to {copy.parent}" + (f"; {self.desk.folder} overwritten"
                                              if confirmed else ""), "success")

    def view(self):
        return pn.Column(pn.pane.Markdown("## cardlab workbench"), self.body,
                         sizing_mode="stretch_width")
