"""Reading a game folder's text files with clear problems: UTF-8 text, TOML with the line of
every key, so that validators name the file and the line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from sim.problems import InputError, Problem


def read_text(path: Path | str) -> str:
    """A text file as UTF-8 (a byte-order mark is dropped); InputError when unreadable."""
    path = Path(path)
    try:
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError([Problem(str(path), 0, "file not found")]) from None
    except UnicodeDecodeError as err:
        raise InputError([Problem(str(path), 0, f"not UTF-8 text: {err.reason}")]) from None
    except OSError as err:
        raise InputError([Problem(str(path), 0, f"cannot read: {err.strerror}")]) from None


def key_lines(text: str) -> dict[str, int]:
    """The line of each top-level `key = value` of a TOML text (the first, if repeated)."""
    out = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        head = raw.split("#", 1)[0]
        if "=" in head:
            out.setdefault(head.split("=", 1)[0].strip().strip('"'), i)
    return out


def load_toml(path: Path | str) -> tuple[dict, dict[str, int]]:
    """(values, line of each key) of a TOML file; InputError naming the line when it does
    not parse."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"line (\d+)", str(err))
        line = getattr(err, "lineno", 0) or (int(found.group(1)) if found else 0)
        raise InputError([Problem(str(path), line, f"not valid TOML: {err}")]) from None
    return data, key_lines(text)
