"""High Card's rule options, each declared once: rules.toml, --rules and the manifest read
into named values and the int64 vector the engine reads; a missing key takes its default."""

from __future__ import annotations

from pathlib import Path

from sim.kit.options import Option, Options, Rules

OPTIONS_DECLARED = (
    Option("points_to_win", 5, "points that win the match", lo=1, hi=99),
    Option("deck_size", 20, "cards a deck lists, exactly", lo=1, hi=60),
    Option("hand_size", 3, "cards each player draws at set-up", lo=1, hi=10),
    Option("value_cap", 100, "the most a deck's number cards may add up to", lo=0, hi=540),
    Option("ties", "nobody", "equal cards: nobody scores, or both do",
           words=("nobody", "both")),
    Option("winner_leads", True, "the round's winner leads the next (else the other player "
           "leads: the lead alternates)"),
)
# The engine's vector holds them in this order (Options.in_order).
R_POINTS, R_DECK_SIZE, R_HAND, R_VALUE_CAP, R_TIES, R_WINNER_LEADS = range(len(OPTIONS_DECLARED))


OPTIONS = Options(OPTIONS_DECLARED)


def load_rules(path: Path | str | None) -> Rules:
    """Read and check rules.toml; a missing key (or no file: None) takes its default."""
    return OPTIONS.load(path)
