"""The `balance` command: the fewest card-value changes that bring a field into a band and,
by default, to health (several decks in the Nash mix, none dominated), checked on held-out
seeds against adversarial deck-building rounds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.meta import Decks, load_field, show_meta
from sim.cli.shared import (
    CardSets,
    Folder,
    Policy,
    Quiet,
    Results,
    RuleChanges,
    RunId,
    Seed,
    console,
    guarded,
    print_frame,
    split_list,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def balance(
    folder: Folder = None,
    decks: Decks = None,
    band: Annotated[str, typer.Option(help="LO..HI: every deck's win rate against the field "
                                      "must end inside")] = "0.45..0.55",
    fields: Annotated[str, typer.Option(help="card fields that may change, comma-separated, "
                                        "e.g. normal_bonus,cost")] = "",
    health: Annotated[bool, typer.Option(
        "--health/--band-only", help="aim at a healthy field (several decks in the Nash mix, "
        "none dominated) besides the band; a field of two decks has the band alone")] = True,
    support: Annotated[int | None, typer.Option(
        min=1, help="decks the Nash mix must hold, at least (default: all but one)")] = None,
    diversity: Annotated[float | None, typer.Option(
        min=1.0, help="effective number of decks in the Nash mix, at least (default: the "
        "field's size less 1.5)")] = None,
    max_change: Annotated[int, typer.Option(
        min=1, help="at most this far from the shipped value")] = 2,
    keep: Annotated[str, typer.Option(
        help="cards whose values never change (e.g. printed ones), ids or names, "
        "comma-separated")] = "",
    penalty: Annotated[float, typer.Option(
        min=0.0, help="distance to the target a newly changed value must buy over a step "
        "of a value already changed (sparsity)")] = 0.005,
    margin: Annotated[float, typer.Option(
        help="aim this far inside the target on training seeds")] = 0.01,
    policy: Policy = None,
    rules: RuleChanges = None,
    sets: CardSets = None,
    matches: Annotated[int, typer.Option("--matches", "-n", min=2,
                                         help="training matches per ordered pair")] = 1000,
    confirm: Annotated[int, typer.Option(min=10, help="held-out matches per ordered pair")]
    = 4000,
    adversarial: Annotated[int, typer.Option(
        "--rounds", "-k", min=0, help="adversarial deckbuild rounds (K)")] = 2,
    search_rounds: Annotated[int, typer.Option(min=1, help="deckbuild rounds in each")] = 6,
    mutants: Annotated[int, typer.Option(min=1, help="deckbuild mutants a round")] = 12,
    budget: Annotated[int, typer.Option(
        min=0, help="training matches the searches may play in all (the held-out checks "
        "and rounds come on top); counted, so that the answer is the same on any machine")]
    = 8_000_000,
    seed: Seed = 1,
    write: Annotated[bool, typer.Option(
        "--write", help="also overwrite the folder's cards.csv with the patch")] = False,
    results: Results = Path("results"),
    run_id: RunId = None,
    quiet: Quiet = False,
):
    """The fewest card-value changes within bounds that bring the field to health on
    held-out seeds: every deck inside the band and, for three decks or more, at least
    --support decks in the Nash mix with an effective number of --diversity and no deck
    dominated; then adversarial deckbuild rounds, a found deck that takes over the Nash mix
    joining the field. Where the target is out of reach: the best reached, what it misses,
    and the cards that carry the leading deck. The patch goes to a new folder with a diff
    (cards.csv only with --write)."""
    from sim.solvers.balance import Bounds, parse_band
    from sim.solvers.balance import balance as solve
    from sim.solvers.deckbuild import Search

    lo, hi = guarded(lambda: parse_band(band))
    bounds = Bounds(tuple(split_list(fields)), lo, hi, max_change, penalty, margin, health,
                    support, diversity, keep=tuple(split_list(keep)))
    guarded(bounds.check)
    fld = load_field(folder, decks, policy, rules, sets)
    guarded(lambda: bounds.target(len(fld.names)))
    search = Search(rounds=search_rounds, mutants=mutants, start=100, confirm=confirm)

    def progress(text):
        if not quiet:
            typer.echo(text, err=True)

    out = guarded(lambda: solve(fld, bounds, matches, confirm, seed, adversarial, search,
                                results, run_id, write, progress, budget))
    show_meta(out["before"], out["field"], "before: held-out matrix, 95% intervals")
    show_meta(out["after"], out["field"], "after: held-out matrix, 95% intervals")
    print_frame(out["heldout"], f"held-out: each deck's win rate against the field, band "
                f"{lo}..{hi}", ["deck", "before", "rate", "lo", "hi", "n", "inside", "nash"])
    if len(out["rounds"]):
        print_frame(out["rounds"], "adversarial rounds", [
            "round", "deck", "against", "score", "lo", "hi", "n", "nash", "joins_field"])
    c = console()
    c.print(f"{len(out['changes'])} values changed: " + (", ".join(
        f"{k} {out['shipped'][k]} -> {v} ({v - out['shipped'][k]:+g})"
        for k, v in sorted(out["changes"].items())) or "none"))
    t, h = out["target"], out["health"]
    if t.health:
        c.print(f"Nash mix: decks of weight 0.05 or more {out['health_before']['support']} -> "
                f"{h['support']}, effective number of decks "
                f"{out['health_before']['effective']:.2f} -> {h['effective']:.2f} (target: "
                f"{t.support} decks, {t.diversity}); dominated decks "
                f"{len(out['health_before']['dominated'])} -> {len(h['dominated'])}")
    if h["healthy"]:
        c.print(("target reached on held-out seeds" if t.health else
                 "every deck inside the band on held-out seeds")
                + ("" if out["changes"] else ", with no change"))
    else:
        c.print("[bold red]target not reached[/] within --max-change on held-out seeds: "
                + "; ".join(h["reasons"]))
        if len(out["carriers"]):
            print_frame(out["carriers"], f"what carries {out['carriers'].deck.iloc[0]} (each "
                        "card taken out of it, its worth against the rest of the field)",
                        ["name", "copies", "worth", "lo", "hi", "n"])
    if out["diff"]:
        typer.echo(out["diff"])
    typer.echo(f"results: {out['path']}" + ("  (cards.csv written)" if write and
                                             out["changes"] else ""))


def mount(app: typer.Typer) -> None:
    """Put this module's command on the `cardlab` app (sim/cli/app.py mounts every module)."""
    app.command()(balance)
