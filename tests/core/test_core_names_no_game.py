"""Core knows no game (issue 32): ``answerdesk/core/`` and ``models.py`` name no format.

Read with ``ast`` from the source: no import of a format package, no comparison
with a format's name nor a default naming one (an event's format comes from the
registry, Format.default), and no name of a table a format owns, neither its
class nor its table in a string (SQL). What a game adds goes through the hooks
on Format; each format's tables live in ``formats/<name>/models.py``. Comments and
docstrings may cite the rules a piece of core serves (BG-E2 is every game's lock).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from answerdesk.core import formats
from answerdesk.extensions import db

PACKAGE = Path(__file__).resolve().parents[2] / "answerdesk"
CORE = sorted((PACKAGE / "core").glob("*.py")) + [PACKAGE / "models.py"]
LOCALES = {"bg", "ru", "en"}  # a locale is no game, though one shares BG's name


def _format_tables(app) -> dict[str, str]:
    """Every table a format's models define: table name → class name."""
    found = {}
    for mapper in db.Model.registry.mappers:
        cls = mapper.class_
        if cls.__module__.startswith("answerdesk.formats."):
            found[cls.__table__.name] = cls.__name__
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the Constant nodes that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _package(path: Path) -> str:
    return "answerdesk.core" if path.parent.name == "core" else "answerdesk"


def _imported(node: ast.ImportFrom, package: str) -> list[str]:
    """The absolute modules a ``from`` import may load (the module and module.name)."""
    if node.level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module
                                                                 else []))
    else:
        base = node.module or ""
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def _offences(path: Path, games: set[str], tables: dict[str, str],
              package: str | None = None) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    words = re.compile(r"\b(" + "|".join(map(re.escape, tables)) + r")\b")
    package = package or _package(path)
    found = []

    def where(node: ast.AST) -> str:
        return f"{path.name}:{node.lineno}"

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{where(node)} imports {m}" for m in _imported(node, package)
                      if m == "answerdesk.formats" or m.startswith("answerdesk.formats.")][:1]
        if isinstance(node, ast.Import):
            found += [f"{where(node)} imports {a.name}" for a in node.names
                      if a.name.startswith("answerdesk.formats")]
        if isinstance(node, ast.Compare):
            for part in [node.left, *node.comparators]:
                if isinstance(part, ast.Constant) and part.value in games:
                    found.append(f"{where(node)} compares with the format {part.value!r}")
        if isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args][-len(node.defaults) or len(node.args):]
            pairs = [*zip(named if node.defaults else [], node.defaults, strict=True),
                     *zip(node.kwonlyargs, node.kw_defaults, strict=True)]
            for arg, default in pairs:
                if isinstance(default, ast.Constant) and default.value in (
                        games if arg.arg == "format" else games - LOCALES):
                    found.append(f"{where(default)} defaults to the format {default.value!r}")
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            is_format = any(isinstance(t, ast.Name) and t.id == "format" for t in targets)
            for sub in ast.walk(node):
                if isinstance(sub, ast.keyword) and sub.arg == "default" and isinstance(
                        sub.value, ast.Constant) and sub.value.value in (
                        games if is_format else games - LOCALES):
                    found.append(f"{where(sub)} defaults to the format {sub.value.value!r}")
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in tables.values():
                found.append(f"{where(node)} names the format's table class {name}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs and (match := words.search(node.value)) \
                and re.search(r"\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+" + match.group(1) + r"\b",
                              node.value, re.I):
            found.append(f"{where(node)} reads the format's table {match.group(1)} in SQL")
    return found


def test_core_and_models_name_no_game(app) -> None:
    games = set(formats.names())
    tables = _format_tables(app)
    assert {"bg", "chgk", "si", "oq"} <= games
    assert {"joker", "wildcard", "shootout", "shootout_answer", "edition",
            "team_alias"} <= set(tables)
    offences = [o for path in CORE for o in _offences(path, games, tables)]
    assert offences == []


@pytest.mark.parametrize("source, offence", [
    ("from ..formats.bg import jokers\n", "imports answerdesk.formats.bg"),
    ("from .formats import register\n", None),
    ("def f(event):\n    return event.format == 'chgk'\n", "compares with the format 'chgk'"),
    ("def create(locale='bg'):\n    pass\n", None),
    ("def create(name, format='bg'):\n    pass\n", "defaults to the format 'bg'"),
    ("class Event:\n    format: str = column(default='bg')\n", "defaults to the format 'bg'"),
    ("class Event:\n    screen_locale: str = column(default='bg')\n", None),
    ("def create(format='oq'):\n    pass\n", "defaults to the format 'oq'"),
    ("x = Joker.__table__\n", "names the format's table class Joker"),
    ("SQL = 'SELECT 1 FROM joker j WHERE j.kind = 1'\n", "reads the format's table joker"),
    ("WORD = 'a joker'\n", None),
])
def test_the_check_finds_what_it_forbids(app, tmp_path, source, offence) -> None:
    """The check itself can fail: each kind of naming a game is found (a locale's
    default is not a game; a word in a message is not a table)."""
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    found = _offences(path, set(formats.names()), _format_tables(app), "answerdesk.core")
    if offence is None:
        assert found == []
    else:
        assert len(found) == 1 and offence in found[0], found


def _shown(name: str) -> str:
    """A hook as docs/ARCHITECTURE.md lists it: a method with its arguments and return
    type (``decorate_sheet(sheet, event, team) -> BuiltSheet``), an attribute with
    its type (``appeals: bool``), as the code declares them."""
    value = vars(formats.Format)[name]
    if not callable(value):
        declared = formats.Format.__annotations__[name]
        return f"{name}: {declared.removeprefix('ClassVar[').removesuffix(']')}"
    signature = inspect.signature(value)
    shown: list[str] = []
    for param in list(signature.parameters.values())[1:]:
        if param.kind is param.VAR_KEYWORD:
            shown.append(f"**{param.name}")
            continue
        if param.kind is param.KEYWORD_ONLY and "*" not in shown:
            shown.append("*")
        shown.append(param.name)
    return f"{name}({', '.join(shown)}) -> {signature.return_annotation}"


def test_every_hook_is_declared_on_format_and_listed_in_the_architecture() -> None:
    """One place lists every hook (docs/ARCHITECTURE.md) with its arguments and its
    return type as the code declares them, and nothing asks a format for an undeclared
    one with getattr."""
    doc = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = doc[doc.index("## What a format package provides"):doc.index("## One answer")]
    hooks = [name for name in vars(formats.Format) if not name.startswith("_")]
    assert {"save_columns", "check_save", "paper_extras", "buzzer_arming"} <= set(hooks)
    assert [name for name in hooks if f"`{_shown(name)}`" not in section] == []
    asks = re.compile(r"getattr\((get_format|formats\.(get|of)|fmt|format)\b")
    assert [str(p.relative_to(PACKAGE)) for p in sorted(PACKAGE.rglob("*.py"))
            if asks.search(p.read_text(encoding="utf-8"))] == []
