"""Writes notebooks/06-workbench.ipynb, the designer's workbench (outputs are never committed).

Run `python notebooks/build_workbench.py` after editing a cell here.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
NAME = "06-workbench.ipynb"

CELLS = [
    new_markdown_cell("""# 06 · The designer's workbench

Two sliders: a card's value and a rule option. Every move replays the matchup with the change
on the **same seeds** as the printed cards (a paired what-if) and redraws deck A's win rate
with its 95% interval beside the baseline, with the paired delta in the title. It works for
any registered game: pick the folder, a `CARD.FIELD` and a numeric rule option below."""),
    new_code_cell('''import os
from pathlib import Path

# Small match counts when the test suite runs the notebook; a few thousand otherwise, which
# keeps every redraw within a couple of seconds.
MATCHES = min(int(os.environ.get("CARDLAB_NOTEBOOK_GAMES", "4000")), 4000)
FOLDER = Path("..") / "decks" / "paintline"
RESULTS = Path(os.environ.get("CARDLAB_RESULTS", Path("..") / "results"))
CARD_FIELD = "Order of Lenin.cost"
RULE = "points_to_win"
print(f"{MATCHES:,} paired matches a redraw")'''),
    new_code_cell('''from sim.kit import game as registry
from sim.kit.folders import read_folder
from sim.solvers.workbench import Workbench

info = read_folder(FOLDER)
game = registry.get(info.game)


def load(extra_sets):
    """The default matchup of the folder with some card values changed."""
    return game.load_matchup(info.path, *info.decks, info.policy, info.policy, {}, extra_sets)


bench = Workbench(game, load, CARD_FIELD, RULE, matches=MATCHES, seed=1)
print(f"{CARD_FIELD} is {bench.card_now}; {RULE} is {bench.rule_now}")'''),
    new_markdown_cell("""## The sliders

Move either slider: the what-if reruns when you let go. (Opened outside Jupyter, the next
section calls the same function the sliders call.)"""),
    new_code_cell('''bench.widget()'''),
    new_markdown_cell("""## The same what-if from code

`bench.update(card=..., rule=...)` is what a slider move calls; it returns the variant's rate
with its Wilson interval and the paired delta against the printed cards."""),
    new_code_cell('''row = bench.update(card=bench.card_now + 4)
bench.draw(row)
{k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}'''),
    new_markdown_cell("""Every redraw so far, kept for the record:"""),
    new_code_cell('''import pandas as pd

RESULTS.mkdir(parents=True, exist_ok=True)
history = pd.DataFrame(bench.history)
history.to_csv(RESULTS / "workbench.csv", index=False)
history.round(4)'''),
]


def notebooks() -> dict[str, str]:
    """File name -> notebook text, with stable cell ids so rebuilding changes nothing."""
    for i, cell in enumerate(CELLS):
        cell["id"] = f"06-{i:02d}"
    nb = new_notebook(cells=CELLS, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    return {NAME: nbformat.writes(nb) + "\n"}


def main() -> None:
    for name, text in notebooks().items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
