"""Writes the tutorial notebooks from the cell texts below (outputs are never committed).

Run `python notebooks/build.py` after editing a cell here; the .ipynb files are what
designers open.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

SETUP = '''import os
from pathlib import Path

# Small game counts when the test suite runs the notebooks; full counts otherwise.
GAMES = int(os.environ.get("CARDLAB_NOTEBOOK_GAMES", "20000"))
FOLDER = Path("..") / "decks" / "paintline"
RESULTS = Path(os.environ.get("CARDLAB_RESULTS", Path("..") / "results"))
print(f"{GAMES:,} matches per run, results in {RESULTS}")'''

FIRST_LOOK = [
    new_markdown_cell("""# 01 · A first look at Paint the Line

This notebook plays the two sample decks against each other, reads the results back with
their 95% intervals, draws the escalation survival curve (with the exact solution beside a
rally-mode run), and replays one match turn by turn."""),
    new_code_cell(SETUP),
    new_markdown_cell("""## Simulate

`load_matchup` reads the card pool, rule options, decks and policies from the game folder;
`simulate` plays the matches in chunks and streams them to the results store."""),
    new_code_cell('''from sim.kit.game import get
from sim.runner.run import simulate

game = get("paintline")
m = game.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy")
result = simulate(game, m, GAMES, seed=1, results=RESULTS, chunk_size=max(GAMES // 4, 1),
                  workers=1, backend="serial")
result.run.path'''),
    new_markdown_cell("""## Win rates with intervals

Every rate comes with its count, n and a Wilson 95% interval; the match is the unit."""),
    new_code_cell('''from analysis import metrics, plots, survival
from analysis.load import load_run

run = load_run(result.run.path)
head = metrics.headline(run)
head[["quantity", "k", "n", "rate", "lo", "hi"]]'''),
    new_code_cell('''plots.plot_headline(head);'''),
    new_markdown_cell("""## How far rallies climb

`histogram_survival` gives P(a rally reaches index >= k) for each server. Full-deck games are
not covered by the exact solver (draws and stamina matter), so the next cell also runs
rally mode, where each player starts every rally with a fixed arsenal: there the exact
Markov solution is drawn dashed beside the simulation, and the two must agree."""),
    new_code_cell('''surv = survival.histogram_survival(run, "top_step")
plots.plot_survival(surv, labels=run.deck_names, xlabel="escalation index");'''),
    new_code_cell('''rally = game.with_rules(m, {"rally_mode": True,
                             "arsenal_a": ["Drive Shot", "Topspin"],
                             "arsenal_b": ["Order of Lenin"]})
rally_run = load_run(simulate(game, rally, GAMES, seed=1, results=RESULTS, workers=1,
                              backend="serial").run.path)
print(rally_run.manifest["exact_check"])
plots.plot_survival(survival.histogram_survival(rally_run, "top_step"),
                    labels=("Drive Shot + Topspin serves", "Order of Lenin serves"),
                    xlabel="escalation index");'''),
    new_markdown_cell("""## One match, turn by turn

The reference engine replays any match of a run from its seed and index, and its record
equals the batch record."""),
    new_code_cell('''from sim.paintline.reference import replay

match = replay(m, seed=1, match_index=0)
print("\\n".join(match.text[:40]))
assert (run.matches.iloc[0, 1:].to_numpy() == match.record).all()'''),
]

TUNING = [
    new_markdown_cell("""# 02 · Tuning a card: Order of Lenin

What if Order of Lenin's bonus were different? The card is printed +6, +8 with advantage;
each variant keeps that shape (the advantage bonus two more than the normal one), so the
row at 6 is the printed card and its difference is nil. Every variant is played on the
same seeds as the baseline (common random numbers), so the differences are sharp. Both
decks play `trained`, a policy that plays the card well. Then: what the card is worth on
the die, and what a rule option (win by 2) does."""),
    new_code_cell(SETUP),
    new_code_cell('''import dataclasses

import pandas as pd

from analysis import plots
from sim.core.stats import paired_difference, with_rate
from sim.paintline.batch import load_matchup, run_batch
from sim.paintline.pool import INT_COLUMNS

m = load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "trained")
lenin = m.pool.lookup("Order of Lenin")


def lenin_at(bonus):
    """The matchup with Order of Lenin at +bonus, +bonus + 2 with advantage (as printed)."""
    return dataclasses.replace(m, pool=m.pool.with_values(
        {(lenin, INT_COLUMNS["normal_bonus"]): bonus,
         (lenin, INT_COLUMNS["advantage_bonus"]): bonus + 2}))


base = run_batch(m, GAMES, seed=7)
rows = []
for bonus in range(4, 10):
    rec = run_batch(lenin_at(bonus), GAMES, seed=7)
    ussr_wins = (rec.matches[:, 0] == 1)
    d = paired_difference(base.matches[:, 0] == 1, ussr_wins)
    rows.append({"normal_bonus": bonus, "advantage_bonus": bonus + 2,
                 "k": int(ussr_wins.sum()), "n": GAMES, "delta_vs_printed": d["delta"],
                 "delta_lo": d["lo"], "delta_hi": d["hi"]})
curve = with_rate(pd.DataFrame(rows))
curve.round(4)'''),
    new_code_cell('''plots.plot_curve(curve, "normal_bonus", label="USSR win rate");'''),
    new_markdown_cell("""## Worth on the die

The exact solver puts the card alone in a rally against the Default Shot and finds the flat
d20 modifier that would give a player with no cards the same odds: the designers' unit of
card strength."""),
    new_code_cell('''from sim.paintline.edits import worth

for bonus in (4, 6, 8):
    worth_d20 = worth(lenin_at(bonus), 1, "order-of-lenin")
    printed = " (as printed)" if bonus == 6 else ""
    print(f"Order of Lenin at +{bonus}, +{bonus + 2} with advantage{printed}: worth "
          f"{worth_d20:+.2f} on the d20")'''),
    new_markdown_cell("""## A rule option: win by 2

`whatif` plays baseline and variant rules on the same seeds and tabulates every delta with
its interval."""),
    new_code_cell('''from sim.experiments.designs import whatif
from sim.kit.game import get

w = whatif(get("paintline"), m, {"win_by": 2}, GAMES, seed=7, results=RESULTS)
w[["item", "baseline", "variant", "delta", "lo", "hi"]]'''),
]

DECK = [
    new_markdown_cell("""# 03 · Building a deck

How many Stamina should the US deck run? Which cards pull their weight? This notebook
sweeps the Stamina count (same seeds at every point), then reads the card metrics of a run
and the causal verdicts on its cards."""),
    new_code_cell(SETUP),
    new_code_cell('''from analysis import metrics, plots
from analysis.load import load_run
from sim.experiments.designs import sweep
from sim.kit.game import get
from sim.runner.run import simulate

game = get("paintline")
m = game.load_matchup(FOLDER, "us-red-tide", "ussr-red-tide", "greedy", "greedy")
curve = sweep(game, m, 0, "stamina", list(range(12, 29, 4)), GAMES, seed=3, results=RESULTS)
curve[["value", "k", "n", "rate", "lo", "hi", "vs_best", "optimum_set", "p_stamina_by_turn_3"]]'''),
    new_markdown_cell("""`vs_best` is each count's difference from the best one, paired match by
match on the same seeds; `optimum_set` marks the counts whose paired 95% interval reaches 0:
the simulation cannot tell them apart. `p_stamina_by_turn_3` is the exact (hypergeometric)
chance of holding a Stamina by your third draw."""),
    new_code_cell('''plots.plot_curve(curve, "value", label="US win rate by Stamina count");'''),
    new_markdown_cell("""## Card metrics

Games-in-hand win rate, not-drawn win rate and improvement when drawn (IWD) are
correlational: descriptive columns, never verdicts."""),
    new_code_cell('''run = load_run(simulate(game, m, GAMES, seed=3, results=RESULTS, workers=1,
                        backend="serial").run.path)
cards = metrics.card_metrics(run)
cards[cards.kind != "stamina"][["deck", "label", "matches_drawn", "gih_wr", "gns_wr", "iwd",
                                "iwd_relative", "hit_per_match", "success_rate"]].head(12)'''),
    new_markdown_cell("""## Card verdicts

A verdict is causal: each card is played as it is and with par's numbers for its kind and
cost (the deck keeps its length), on the same seeds, and its worth per copy against par is
compared with a margin from the game: half the gap between par and the same card with no
effect. Over- or under-powered means beyond the margin with Benjamini-Hochberg control;
matches go round by round to the cards still open. Passing the folder lets each deck play
under the best of its policies. Here on a small budget, so most cards stay "no
evidence"."""),
    new_code_cell('''from sim.experiments.verdicts import Precision, card_verdicts

v = card_verdicts(game, m, 3, Precision(start=GAMES, max_matches=4 * GAMES))
print(v.verdict.value_counts().to_string(), f"\\n{v.attrs['matches']:,} matches")
plots.plot_verdicts(v);'''),
]


def notebooks() -> dict[str, str]:
    """File name -> notebook text, with stable cell ids so rebuilding changes nothing."""
    out = {}
    for name, cells in (("01-first-look", FIRST_LOOK), ("02-tuning-a-card", TUNING),
                        ("03-building-a-deck", DECK)):
        for i, cell in enumerate(cells):
            cell["id"] = f"{name[:2]}-{i:02d}"
        nb = new_notebook(cells=cells, metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
        out[f"{name}.ipynb"] = nbformat.writes(nb) + "\n"
    return out


def main() -> None:
    for name, text in notebooks().items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
