"""Where a run stands now: complete, running (its writer still alive), or interrupted
(stopped, or killed so that its manifest still says running), with the matches of its
finished chunks (which they are, and how many) and the matches it was asked for."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.store.lock import writer_alive
from sim.store.runs import RunFolder, chunk_matches


@dataclass(frozen=True)
class RunState:
    """A run's status, its matches so far and the matches it was asked for (the most it may
    play, for a run that stops at a target precision)."""

    status: str
    matches: int
    planned: int
    target_ci: float | None = None

    @property
    def partial(self) -> bool:
        return self.status != "complete"

    def resume_hint(self, path: Path | str) -> str:
        """The command that finishes the run."""
        path = Path(path)
        return f"cardlab simulate --resume {path.name} --results {path.parent}"

    def sentence(self, path: Path | str) -> str:
        """One line on a run that is not complete: how far it got and how to finish it."""
        planned = (f"up to {self.planned:,} (it stops at a 95% half-width of "
                   f"{self.target_ci:g})" if self.target_ci else f"{self.planned:,}")
        if self.status == "running":
            return (f"Partial run, still running: {self.matches:,} of {planned} planned "
                    "matches so far.")
        return (f"Partial run ({self.status}): {self.matches:,} of {planned} planned "
                f"matches; finish it with `{self.resume_hint(path)}`.")


def run_state(path: Path | str, manifest: dict) -> RunState:
    """The run's state from its manifest and its folder: a manifest that says running
    whose writer is gone is interrupted (a killed run never wrote its last status), and a
    run that is not complete counts the matches of the chunks it finished."""
    path = Path(path)
    status = manifest.get("status", "")
    planned, target = int(manifest.get("matches", 0)), manifest.get("target_ci")
    if status == "complete":
        return RunState(status, int(manifest.get("matches_done", 0)), planned, target)
    if status == "running" and writer_alive(path) is False:
        status = "interrupted"
    done = sum(n for _, n in finished(path, manifest))
    return RunState(status, done, planned, target)


def finished(path: Path | str, manifest: dict) -> list[tuple[int, int]]:
    """The matches of a run's finished chunks as (first match, count) spans in match order,
    chunks next to each other joined: a partial run's need not start at match 0 nor be one
    span (chunks finish out of order on several workers)."""
    path = Path(path)
    size = int(manifest.get("chunk_size") or 1)
    planned = int(manifest.get("matches", 0))
    spans: list[tuple[int, int]] = []
    for i in RunFolder(path.parent, path.name).complete_chunks():
        first, n = i * size, chunk_matches(i, size, planned)
        if spans and sum(spans[-1]) == first:
            spans[-1] = (spans[-1][0], spans[-1][1] + n)
        elif n:
            spans.append((first, n))
    return spans
