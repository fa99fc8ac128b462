"""The designer's workbench: sliders for a card value and a rule option, each change replayed
as a paired what-if on the baseline's seeds and drawn with its interval, for any game."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from sim.core.problems import InputError, Problem
from sim.core.stats import paired_difference, wilson
from sim.solvers.tune import target_setter


class Workbench:
    """Deck A's win rate with one card field and one numeric rule option changed, paired
    against the unchanged matchup on the same seeds. `load(extra_sets)` rebuilds the
    matchup with "CARD.FIELD=VALUE" changes (game.load_matchup with its arguments bound)."""

    def __init__(self, game, load: Callable[[list[str]], object], card_field: str, rule: str,
                 matches: int = 2000, seed: int = 1, spread: int = 5):
        self.game, self.load, self.card_field, self.rule = game, load, card_field, rule
        self.matches, self.seed, self.spread = matches, seed, spread
        self.base_matchup = load([])
        _, self.card_now, _ = target_setter(game, self.base_matchup, card_field, load)
        self.option = game.options.by_name.get(rule)
        if self.option is None or self.option.kind != "whole" or self.option.allowed:
            raise InputError([Problem("workbench", 0, f"rule option {rule!r} is not a whole "
                                      "number in a range")])
        self.rule_now = game.describe(self.base_matchup)["rules"][rule]
        self.base = game.run_batch(self.base_matchup, matches, seed).wins(0).astype(float)
        self.history: list[dict] = []
        self.card_slider = self.rule_slider = self.output = None

    def update(self, card=None, rule=None) -> dict:
        """Play the variant on the baseline's seeds: its rate, interval and paired delta."""
        start = time.perf_counter()
        card = self.card_now if card is None else card
        rule = self.rule_now if rule is None else rule
        m = self.load([f"{self.card_field}={card}"]) if card != self.card_now \
            else self.base_matchup
        if rule != self.rule_now:
            m = self.game.with_rules(m, {self.rule: rule})
        wins = self.game.run_batch(m, self.matches, self.seed).wins(0).astype(float)
        lo, hi = wilson(wins.sum(), len(wins))
        blo, bhi = wilson(self.base.sum(), len(self.base))
        d = paired_difference(self.base, wins)
        row = {"card": card, "rule": rule, "n": len(wins),
               "baseline": float(self.base.mean()), "baseline_lo": float(blo),
               "baseline_hi": float(bhi), "rate": float(wins.mean()), "lo": float(lo),
               "hi": float(hi), "delta": float(d["delta"]), "delta_lo": float(d["lo"]),
               "delta_hi": float(d["hi"]), "seconds": time.perf_counter() - start}
        self.history.append(row)
        return row

    def draw(self, row: dict, ax=None):
        """Baseline and variant rates with their 95% intervals, the paired delta in the title."""
        # deferred: matplotlib loads only when a figure is drawn
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 3.2))
        names = ["printed", f"{self.card_field} = {row['card']}\n{self.rule} = {row['rule']}"]
        rates = np.array([row["baseline"], row["rate"]])
        err = np.array([[row["baseline"] - row["baseline_lo"], row["rate"] - row["lo"]],
                        [row["baseline_hi"] - row["baseline"], row["hi"] - row["rate"]]])
        ax.errorbar([0, 1], rates, yerr=err, fmt="o", capsize=6, color="#1f77b4")
        ax.axhline(0.5, color="#888888", linestyle=":")
        ax.set_xticks([0, 1], names)
        ax.set_xlim(-0.5, 1.5)
        ax.set_ylabel(f"{self.base_matchup.decks[0].name} win rate")
        ax.set_title(f"paired delta {row['delta']:+.3f} [{row['delta_lo']:+.3f}, "
                     f"{row['delta_hi']:+.3f}], n {row['n']:,}")
        return ax

    def _changed(self, _=None) -> None:
        # deferred: matplotlib and the notebook's display load only when a figure is drawn
        import matplotlib.pyplot as plt
        from IPython.display import display

        row = self.update(self.card_slider.value, self.rule_slider.value)
        with self.output:
            self.output.clear_output(wait=True)
            ax = self.draw(row)
            display(ax.figure)
            plt.close(ax.figure)

    def widget(self):
        """Two sliders and the drawing; moving a slider reruns the paired what-if."""
        # deferred: the notebook widgets load only in a notebook
        import ipywidgets as w

        c = self.card_now
        self.card_slider = w.IntSlider(value=c, min=max(0, c - self.spread),
                                       max=c + self.spread, description=self.card_field,
                                       continuous_update=False,
                                       style={"description_width": "initial"})
        r, o = self.rule_now, self.option
        self.rule_slider = w.IntSlider(value=r, min=max(o.lo, r - self.spread),
                                       max=min(o.hi, r + self.spread), description=self.rule,
                                       continuous_update=False)
        self.output = w.Output()
        self.card_slider.observe(self._changed, names="value")
        self.rule_slider.observe(self._changed, names="value")
        self._changed()
        return w.VBox([self.card_slider, self.rule_slider, self.output])
