"""Paint the Line's own command: `cardlab rally`, the exact rally, game and match odds of a
rally-mode setting by arsenal, with each arsenal's worth on the d20."""

from __future__ import annotations

from typing import Annotated

import typer


def mount(app: typer.Typer) -> None:
    app.command()(rally)


def rally(
    arsenal_a: Annotated[str, typer.Option(help="seat A's shot cards, comma separated")] = "",
    arsenal_b: Annotated[str, typer.Option(help="seat B's shot cards, comma separated")] = "",
    policy: Annotated[str, typer.Option(help="policy of both seats")] = "greedy",
    policy_a: Annotated[str | None, typer.Option()] = None,
    policy_b: Annotated[str | None, typer.Option()] = None,
    rules: Annotated[list[str] | None, typer.Option(help="rule option KEY=VALUE")] = None,
    folder: Annotated[str, typer.Option(help="a Paint the Line folder")] = "paintline",
    check_matches: Annotated[int, typer.Option("--check", min=0,
                                               help="also simulate N matches")] = 0,
    seed: Annotated[int, typer.Option(min=0)] = 1,
    worth: Annotated[bool, typer.Option(help="also A's arsenal's worth on the d20")] = False,
):
    """Paint the Line: exact rally, game and match odds of a rally-mode setting (each seat
    starts every rally with its arsenal); with --check N, a simulation beside it."""
    # deferred: read at start-up, this module loads the command line and the exact solver
    # (scipy) only when the command runs
    from rich.table import Table

    from sim.cli.shared import Setup, console, guarded, print_frame, split_list
    from sim.paintline import exact as ex

    setup = Setup(folder, None, None, policy, policy_a, policy_b, tuple(rules or ()))
    game, m, _ = setup.load({"rally_mode": True, "arsenal_a": split_list(arsenal_a),
                             "arsenal_b": split_list(arsenal_b)})
    answer = guarded(lambda: ex.solve(m))
    out = console()
    names = [", ".join(m.pool.names[c] for c in cards) or "Default Shot only"
             for cards in m.arsenals]
    out.print(f"A ({m.policy_names[0]}): {names[0]}")
    out.print(f"B ({m.policy_names[1]}): {names[1]}")
    table = Table(title="exact, rally mode")
    for col in ("quantity", "A serves", "B serves"):
        table.add_column(col, justify="right" if col != "quantity" else "left")
    a, b = answer.rallies
    table.add_row("P(server wins point)", f"{a.server_wins:.6f}", f"{b.server_wins:.6f}")
    table.add_row("mean rally length (shots landed)", f"{a.mean_length:.4f}",
                  f"{b.mean_length:.4f}")
    for k in range(1, len(a.survival)):
        table.add_row(f"P(index reaches {m.rules.values['escalation'][k]})",
                      f"{a.survival[k]:.6f}", f"{b.survival[k]:.6f}")
    out.print(table)
    out.print(f"P(A wins game) {answer.game_a_opens:.6f} when A opens, "
                  f"{answer.game_b_opens:.6f} when B opens; P(A wins match) "
                  f"{answer.match:.6f}")
    if worth:
        out.print(f"A's arsenal is worth {ex.worth_on_the_die(m):+.3f} on the d20 (the "
                      "flat modifier giving the bare Default Shot the same point-win odds)")
    if check_matches:
        df = game.exact_check(m, game.run_batch(m, check_matches, seed).totals())
        print_frame(df.assign(seat=df.seat.map({0: "A", 1: "B", -1: "-"}),
                              flag=df.flag.map({True: "FLAG |z|>4", False: ""})),
                    f"exact vs {check_matches:,} simulated matches (seed {seed})",
                    ["quantity", "seat", "exact", "estimate", "se", "z", "n", "flag"])
        if df.flag.any():
            raise typer.Exit(1)
