"""Python source written under a new name kept to the project's ruff settings: its first-party
imports in order and its lines within the line length."""

from __future__ import annotations

import re

LINE_LENGTH = 100  # [tool.ruff] line-length in pyproject.toml
FIRST_PARTY = ("from sim.", "from analysis.", "from sim ", "from analysis ")


def tidied(text: str) -> str:
    """`text` with each run of first-party `from` imports sorted by module, an import too
    long for a line parenthesized one name a line, and a docstring or comment line too long
    wrapped at a space (as `ruff check` wants them after a rename changed their lengths)."""
    lines = imports_sorted(text.splitlines())
    out, in_doc = [], False
    for line in lines:
        starts_doc = in_doc or line.lstrip().startswith(('"""', "#"))
        if len(line) > LINE_LENGTH and line.startswith(FIRST_PARTY) and "(" not in line:
            out += import_wrapped(line)
        elif len(line) > LINE_LENGTH and starts_doc:
            out += prose_wrapped(line)
        else:
            out.append(line)
        if line.count('"""') % 2:
            in_doc = not in_doc
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def module_order(statement: list[str]) -> tuple:
    """isort's order of a `from MODULE import ...` statement: by module, part by part,
    digits as numbers."""
    module = statement[0].split()[1].lower()
    return tuple(tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", part))
                 for part in module.split("."))


def imports_sorted(lines: list[str]) -> list[str]:
    """The lines with each run of first-party `from` statements (a parenthesized one whole)
    sorted by module; statements of one module keep their order."""
    out, run, at = [], [], 0
    while at <= len(lines):
        line = lines[at] if at < len(lines) else ""
        if line.startswith(FIRST_PARTY):
            statement = [line]
            while statement[-1].rstrip().endswith("(") or (
                    len(statement) > 1 and statement[-1].strip() != ")"):
                at += 1
                statement.append(lines[at])
            run.append(statement)
        else:
            out += [s for statement in sorted(run, key=module_order) for s in statement]
            run = []
            if at < len(lines):
                out.append(line)
        at += 1
    return out


def import_wrapped(line: str) -> list[str]:
    """A `from M import a, b` line as ruff writes one too long: one name a line."""
    head, names = line.split(" import ", 1)
    return [f"{head} import ("] + [f"    {n.strip()}," for n in names.split(",")] + [")"]


def prose_wrapped(line: str) -> list[str]:
    """A docstring or comment line too long, broken at spaces into lines that fit, each
    continued at the line's indent (a comment's with its `# `)."""
    indent = line[: len(line) - len(line.lstrip())]
    lead = indent + ("# " if line.lstrip().startswith("#") else "")
    out = []
    while len(line) > LINE_LENGTH:
        cut = line.rfind(" ", len(lead) + 1, LINE_LENGTH + 1)
        if cut < 0:
            break  # one word longer than a line: left as it is
        out.append(line[:cut].rstrip())
        line = lead + line[cut + 1:]
    return out + [line]
