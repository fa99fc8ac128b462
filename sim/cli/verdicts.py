"""The `verdicts` command: a run's causal card verdicts (sim.experiments.verdict_run), played
round by round and printed with the margins they were judged against; `report` asks for
them the same way."""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.shared import (
    FieldMatches,
    MarginShare,
    Quiet,
    Results,
    VerdictFolder,
    VerdictMax,
    VerdictPolicies,
    VerdictStart,
    guarded,
    print_frame,
    print_skipped,
    run_folder,
)

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def compute_verdicts(path: Path, precision, folder: str | None = None, quiet: bool = False,
                     field_matches: int = 4000):
    """The run's causal verdicts, with a line per round."""
    from sim.experiments.verdict_run import for_run

    def said(rounds, n, still, played):
        if not quiet:
            typer.echo(f"  round {rounds + 1}: {n:,} matches per card, {still} cards still "
                       f"open, {played:,} matches played", err=True)

    if not quiet:
        typer.echo("causal verdicts: each card against par for its kind and cost and against "
                   "itself with no effect, under its deck's best policies, paired on the "
                   "run's seed", err=True)
    folder = folder and str(guarded(lambda: read_folder_path(folder)))
    return guarded(lambda: for_run(path, precision, said, folder, field_matches))


def read_folder_path(folder: str) -> Path:
    from sim.kit.folders import read_folder

    return read_folder(folder).path


def precision_of(share: float, start: int, most: int, policies: int):
    from sim.experiments.verdicts import Precision

    return Precision(start, most, share=share, policies=policies)


def verdicts(
    run: str = typer.Argument(..., help="run id, or a run folder"),
    results: Results = Path("results"),
    margin_share: MarginShare = 0.5,
    policies: VerdictPolicies = 2,
    folder: VerdictFolder = None,
    verdict_start: VerdictStart = 2000,
    verdict_max: VerdictMax = 64_000,
    field_matches: FieldMatches = 4000,
    quiet: Quiet = False,
):
    """Causal card verdicts for a run's matchup: each card of the kinds the game flags is
    played as it is, with par's numbers for its kind and cost, and with no effect (the deck
    keeps its length), on the same seeds, each side under the best of its deck's policies;
    its worth per copy against par is judged against margins from the game (below par a
    share of the gap between par and no effect, above it a share of what par made strong
    gains), Benjamini-Hochberg across cards; cards of a deck with the same row of rules
    (twins) are judged as one. Matches go round
    by round to the cards still open. Saved into the run folder for its report."""
    df = compute_verdicts(run_folder(run, results),
                          precision_of(margin_share, verdict_start, verdict_max, policies),
                          folder, quiet, field_matches)
    a = df.attrs
    plays = "; ".join(f"{d}: {', '.join(p)}" for d, p in a["policies"].items())
    print_frame(df.sort_values(["deck", "relative"], ascending=False),
                f"card verdicts: worth per copy against par, margins {margin_share:g} of the gap "
                f"to no effect (game's {a['pooled_gap']['']:.4f}) and of par made strong "
                f"(game's {a.get('pooled_up', {}).get('', 0):.4f}); played by {plays} "
                f"({a['matches']:,} matches: {a['screen_matches']:,} choosing policies, "
                f"{a['card_matches']:,} for the cards; {a['seconds']:.0f} s)",
                ["deck", "label", "copies", "n", "policy", "as_par", "relative", "relative_lo",
                 "relative_hi", "margin", "detectable", "p_adjusted", "verdict", "twins",
                 *(["field_worth"] if "field_worth" in df else [])])
    if "field" in a:
        typer.echo("field_worth: against the field's decks, weighted by its Nash mix ("
                   + ", ".join(f"{d} {w:.2f}" for d, w in a["field"].items())
                   + f"; {a['field_matches']:,} matches)")
    if "field_refused" in a:
        typer.echo("field_worth: not measured: " + a["field_refused"])
    print_skipped(df)


def mount(app: typer.Typer) -> None:
    """Put this module's command on the `cardlab` app (sim/cli/app.py mounts every module)."""
    app.command()(verdicts)
