"""Writes notebooks/07-metagame.ipynb from the cell texts below (outputs are never committed).

Run `python notebooks/build_metagame.py` after editing a cell here.
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
NAME = "07-metagame.ipynb"

CELLS = [
    new_markdown_cell("""# 07 · The metagame: a field, its strongest deck, and balancing the set

Paint the Line's field of four decks (`[field]` in `decks/paintline/game.toml`): who beats
whom, the Nash mix, a search for the strongest legal deck, and the fewest card-value
changes that bring every deck inside a 0.45 .. 0.55 band on held-out seeds. Every
comparison is paired on common random numbers; every figure has its 95% interval and n.
The same three steps are `cardlab meta`, `cardlab deckbuild` and `cardlab balance`."""),
    new_code_cell('''import os
from pathlib import Path

from IPython.display import Image, display

from sim.experiments.meta import Field
from sim.kit.folders import read_folder
from sim.kit.game import get

# Small match counts when the test suite runs the notebooks; full counts otherwise.
GAMES = int(os.environ.get("CARDLAB_NOTEBOOK_GAMES", "6000"))
MATCHES = max(GAMES // 3, 100)  # matches per ordered pair (a seat)
FOLDER = Path("..") / "decks" / "paintline"
RESULTS = Path(os.environ.get("CARDLAB_RESULTS", Path("..") / "results")) / "metagame-notebook"
RESULTS.mkdir(parents=True, exist_ok=True)
GAME = get("paintline")
info = read_folder(FOLDER)
field = Field(GAME, info.path, list(info.field), info.policy)
print(f"field: {', '.join(field.names)}; policy {field.policy}; {MATCHES:,} matches a seat")'''),
    new_markdown_cell("""## The field's matrix and Nash mix

Every deck against every other from both seats, all twelve ordered pairs on the same seed.
The Nash mix is the maximin strategy of the symmetric zero-sum game (scipy's `linprog`);
its intervals come from re-solving on bootstrap resamples of every pair's matches."""),
    new_code_cell('''from sim.experiments.meta import meta

result, path = meta(field, MATCHES, seed=1, results=RESULTS, reps=100)
wide = result["matrix"].pivot(index="deck", columns="opponent", values="rate")
display(wide.loc[field.names, field.names].round(3))
display(result["decks"].round(3))
print(f"effective number of decks: {result['effective_decks']:.2f} "
      f"({result['effective_lo']:.2f} .. {result['effective_hi']:.2f})")
display(result["dominated"])
display(Image(str(path / "heatmap.png")))'''),
    new_markdown_cell("""## The strongest legal deck against the field

Mutations keep the validator's word (a copy swapped for a card of its group, a copy moved
to another card of the deck); every candidate of a round plays the same seed, and
successive halving gives the matches to the better half. The winner is then played on
held-out seeds beside every shipped deck; a margin over the best shipped deck above the
threshold (with an interval above 0) is a broken deck, and the ablation names its cards."""),
    new_code_cell('''from sim.solvers.deckbuild import Search, deckbuild

search = Search(rounds=3, mutants=8, start=max(MATCHES // 20, 20), confirm=MATCHES,
                threshold=0.03)
found = deckbuild(field, "field", search, seed=1, results=RESULTS)
display(found["confirm"].round(4))
v = found["verdict"]
print(f"found deck over {v['best_shipped']}: {v['margin']:+.4f} ({v['lo']:+.4f} .. "
      f"{v['hi']:+.4f}); broken: {v['broken']}")
display(found["ablation"].round(4))'''),
    new_markdown_cell("""## Balancing the set

A greedy coordinate search over `normal_bonus` (at most 2 from the shipped value): each
step moves the one value that most lowers the field's distance from health (every deck
inside the band, at least three decks in the Nash mix with an effective number of 2.5,
none dominated), plus a penalty for each newly changed value; only the pairs that hold the
changed card are played again. Then one adversarial round: deckbuild against the balanced
field's Nash mix. On the test suite's small match counts the target is the band alone, and
the band is 0.40 .. 0.60: a few hundred matches a seat cannot tell a deck at 0.45 from one
at 0.55, nor a Nash mix from its noise, and the search would chase noise step after
step."""),
    new_code_cell('''from sim.solvers.balance import Bounds, balance

FULL = MATCHES >= 1000  # what the held-out n resolves
BAND = (0.45, 0.55) if FULL else (0.40, 0.60)
bal = balance(field, Bounds(("normal_bonus",), *BAND, step=2, health=FULL),
              matches=max(MATCHES // 2 if FULL else MATCHES // 6, 60),
              confirm=MATCHES, seed=1, adversarial=1,
              search=Search(rounds=2, mutants=6, start=max(MATCHES // 20, 20), confirm=MATCHES),
              results=RESULTS)
print(f"{len(bal['changes'])} values changed:", bal["changes"])
h = bal["health"]
print(f"effective number of decks {bal['health_before']['effective']:.2f} -> "
      f"{h['effective']:.2f}; reached: {h['healthy']}", *h["reasons"], sep="\\n")
display(bal["heldout"].round(4))
display(bal["rounds"])
print(bal["diff"])
display(Image(str(bal["path"] / "heatmap_after.png")))'''),
]


def notebooks() -> dict[str, str]:
    nb = new_notebook(cells=CELLS, metadata={"kernelspec": {"name": "python3",
                                                            "display_name": "Python 3",
                                                            "language": "python"}})
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"metagame-{i:02d}"
    return {NAME: nbformat.writes(nb)}


def main() -> None:
    for name, text in notebooks().items():
        (HERE / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
