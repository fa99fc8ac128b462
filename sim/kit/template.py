"""A new game begun from the template: the template's package, folder and rule scenarios
copied under the new name, and the game registered and placed in the layer contracts where
the checkout holds them."""

from __future__ import annotations

import keyword
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sim.core.problems import InputError, Problem
from sim.kit.folders import read_folder
from sim.kit.game import TEMPLATES, known
from sim.kit.source_lines import tidied

TEMPLATE = next(iter(TEMPLATES))
ROOT = Path(__file__).resolve().parents[2]  # the checkout (or install) that holds `sim`
NAME = re.compile(r"[a-z][a-z0-9_]*")
# A game's name is a folder, a package and part of file names: well within what any file
# system allows, and its REGISTRY line within the line length.
NAME_MOST = 36
# The checkout's own folders: `--folder NAME` reads ./NAME before decks/NAME.
CHECKOUT_FOLDERS = frozenset({"sim", "analysis", "docs", "tests", "results", "decks",
                              "benchmarks", "notebooks"})
TITLE_MOST = 60  # what the title's line of game.py holds within the line length


@dataclass(frozen=True)
class NewGame:
    """What `begin` wrote and changed."""

    package: Path
    folder: Path
    doc: Path | None  # the rules doc, where the checkout has docs/
    tests: Path | None  # the rule scenarios, where the checkout has tests/
    edited: tuple[Path, ...]  # the registry and the layer contracts, where found
    to_do: tuple[str, ...]  # the edits left to make by hand (a file not found)


def name_problems(name: str, root: Path) -> list[str]:
    """Why `name` cannot be a new game's name under `root` ([] when it can)."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        return [f"a game's name is a Python name in lower case (letters, digits, _), got "
                f"{name!r}"]
    if len(name) > NAME_MOST:
        return [f"a game's name has at most {NAME_MOST} characters, got {len(name)}"]
    out = []
    if known(name):
        out.append(f"{name!r} is already a game")
    if name in CHECKOUT_FOLDERS or (root / name).is_dir():
        out.append(f"{name!r} is a folder of the checkout: `--folder {name}` would read "
                   f"./{name}, not decks/{name}")
    for path in (root / "sim" / name, root / "decks" / name, root / "docs" / f"{name}-rules.md",
                 root / "tests" / f"test_{name}_rules.py"):
        if path.exists():
            out.append(f"{path} already exists")
    return out


def root_problems(root: Path) -> list[str]:
    """Why `root` is not a checkout to write a new game into ([] when it is)."""
    if (root / "sim" / "kit" / "game.py").is_file() or (root / "pyproject.toml").is_file():
        return []
    return [f"{root} is not a cardlab checkout (it has neither sim/kit/game.py nor "
            "pyproject.toml)"]


def title_problems(title: str) -> list[str]:
    """Why `title` cannot be a new game's title ([] when it can): it is written inside
    TOML and Python strings and docstrings, so it holds no quote, backslash or control
    character, and it fits a line of code."""
    out = []
    if not title.strip() or any(c in title for c in '"\\') or not title.isprintable():
        out.append(f"a game's title is a line of text without a double quote or a backslash, "
                   f"got {title!r}")
    if len(title) > TITLE_MOST:
        out.append(f"a game's title has at most {TITLE_MOST} characters, got {len(title)}")
    return out


def begin(name: str, title: str, root: Path = ROOT) -> NewGame:
    """The template's package written as sim/NAME, its folder as decks/NAME, its rules doc
    as docs/NAME-rules.md and its rule scenarios as tests/test_NAME_rules.py under `root`,
    every mention of the template's name and title made the new game's, then NAME added to
    the registry (sim/kit/game.py) and to the games' layer contracts (pyproject.toml) where
    `root` holds them. InputError when the name is taken or not one."""
    problems = root_problems(root) + name_problems(name, root) + title_problems(title)
    for path in (ROOT / "sim" / TEMPLATE, ROOT / "decks" / TEMPLATE):
        if not path.is_dir():
            problems.append(f"the template's {path} is not here (a checkout has it)")
    if problems:
        raise InputError([Problem("new-game", 0, p) for p in problems])
    # The template's words made the new game's: its title (as its game.toml gives it, and
    # its short form), its name; the rules stay the template's until the game rewrites them.
    was = read_folder(ROOT / "decks" / TEMPLATE).title

    # One pass, so that a title holding the template's title or name is not renamed again.
    words = {was: title, was.split(" (")[0]: title, TEMPLATE: name}
    pattern = re.compile("|".join(re.escape(w) for w in words))

    def renamed(text: str) -> str:
        return pattern.sub(lambda m: words[m.group(0)], text)

    package, folder = root / "sim" / name, root / "decks" / name
    package.mkdir(parents=True)
    for path in sorted((ROOT / "sim" / TEMPLATE).glob("*.py")):
        copied(path, package / path.name, renamed)
    (package / "__init__.py").write_text(tidied(
        f'"""{title}: its rules, engines and hooks behind the game contract."""\n'),
        encoding="utf-8")
    shutil.copytree(ROOT / "decks" / TEMPLATE, folder)
    for toml in folder.glob("*.toml"):  # its name, title, and the commands in comments
        toml.write_text(renamed(toml.read_text(encoding="utf-8")), encoding="utf-8")
    readme = folder / "README.md"
    if readme.is_file():
        readme.write_text(folder_readme(readme.read_text(encoding="utf-8"), name, title,
                                        renamed), encoding="utf-8")
    # Its rules doc and rule scenarios, where the checkout keeps them (the doc's options
    # table and each scenario are the new game's to rewrite with its rules).
    doc = root / "docs" / f"{name}-rules.md"
    documented = copied(ROOT / "docs" / f"{TEMPLATE}-rules.md", doc, renamed)
    tests = root / "tests" / f"test_{name}_rules.py"
    scenarios = copied(ROOT / "tests" / f"test_{TEMPLATE}_rules.py", tests, renamed)
    edited, to_do = [], []
    line = f'    "{name}": "sim.{name}.game:GAME",\n'
    for path, edit, wanted in (
            (root / "sim" / "kit" / "game.py", lambda t: register(t, line), line.strip()),
            (root / "pyproject.toml", lambda t: contracts(t, name),
             f"sim.{name} beside sim.{TEMPLATE} in [tool.importlinter]'s game contracts")):
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        changed = edit(text) if text else text
        if changed and changed != text:
            path.write_text(changed, encoding="utf-8")
            edited.append(path)
        else:
            to_do.append(f"{path}: add {wanted}")
    return NewGame(package, folder, doc if documented else None, tests if scenarios else None,
                   tuple(edited), tuple(to_do))


def folder_readme(text: str, name: str, title: str, renamed: Callable[[str], str]) -> str:
    """The folder's README for the new game: its own opening in place of the template's
    (which says what the template is for), then the template's sections renamed."""
    rest = text[text.find("\n## "):] if "\n## " in text else ""
    return (f"# {title}\n\nBegun from the template by `cardlab new-game {name}`: its rules, "
            "policies and decks are the template's until rewritten (the guide's \"Add a "
            f"game\" says what each file is for).\n\n`cardlab simulate --folder {name}` "
            f"plays it.\n{renamed(rest)}")


def copied(source: Path, target: Path, renamed: Callable[[str], str]) -> bool:
    """The template's file written for the new game, `renamed`, where the target's folder
    exists and the file does not yet."""
    if not source.is_file() or not target.parent.is_dir() or target.exists():
        return False
    text = renamed(source.read_text(encoding="utf-8"))
    target.write_text(tidied(text) if target.suffix == ".py" else text, encoding="utf-8")
    return True


def register(text: str, line: str) -> str:
    """sim/kit/game.py with the line added as the last entry of REGISTRY ("" when the
    registry is not where it is expected)."""
    head = text.find("\nREGISTRY = {\n")
    end = text.find("\n}\n", head)
    if head < 0 or end < 0:
        return ""
    return text[: end + 1] + line + text[end + 1:]


def contracts(text: str, name: str) -> str:
    """pyproject.toml with the new game beside the template wherever the import contracts
    name the games: at the end of the games' layer and of every list of game packages."""
    out = []
    for line in text.splitlines(keepends=True):
        if f"sim.{TEMPLATE}" in line:
            layer = re.match(r'(\s*"[^"]*sim\.' + TEMPLATE + r'[^"]*)(".*)', line, re.S)
            if "[" not in line and layer:
                line = f"{layer.group(1)} | sim.{name}{layer.group(2)}"
            elif f'"sim.{TEMPLATE}"' in line and "]" in line:
                at = line.rindex("]")
                line = f'{line[:at]}, "sim.{name}"{line[at:]}'
        out.append(line)
    return "".join(out)
