"""The package's import boundaries (issue 14 §2, ARCHITECTURE.md "Layers").

Read with ``ast`` from the source, so a rule is checked without importing
anything: core and the checker never import a format; nothing outside
``formats/bg/`` imports ``formats.bg`` (a format is reached through core's
registry); and no two modules import each other, directly or around a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "answerdesk"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _targets(node: ast.Import | ast.ImportFrom, module: str, path: Path) -> list[str]:
    """The modules one import statement loads (``from pkg import sub`` loads pkg.sub)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = _package_of(module, path).split(".")
        base = base[: len(base) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = []
    for alias in node.names:
        full = f"{source}.{alias.name}"
        found.append(full if full in MODULES else source)
    return found


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, *, top_level_only: bool) -> set[str]:
    """What ``module`` imports: everywhere, or only when it is itself imported."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if top_level_only:
        nodes: list[ast.AST] = []
        pending = list(tree.body)
        while pending:
            stmt = pending.pop()
            if _is_type_checking(stmt):
                continue
            if isinstance(stmt, ast.If | ast.Try):
                pending.extend(ast.iter_child_nodes(stmt))  # still run at import time
            nodes.append(stmt)
    else:
        nodes = list(ast.walk(tree))
    return {
        target
        for node in nodes if isinstance(node, ast.Import | ast.ImportFrom)
        for target in _targets(node, module, path)
    }


def _under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_module_list_covers_core_checker_and_the_bg_format() -> None:
    assert {"answerdesk.core.rounds", "answerdesk.checker.core",
            "answerdesk.formats.bg.standings", "answerdesk.core.formats"} <= set(MODULES)


@pytest.mark.parametrize("module", [m for m in MODULES if not _under(m, "answerdesk.formats.bg")])
def test_only_the_bg_package_imports_formats_bg(module: str) -> None:
    """Everything else reaches the BG format through core.formats' registry."""
    assert not {t for t in _imports(module, top_level_only=False)
                if _under(t, "answerdesk.formats.bg")}


@pytest.mark.parametrize("module", [m for m in MODULES
                                    if _under(m, "answerdesk.core")
                                    or _under(m, "answerdesk.checker")])
def test_core_and_checker_never_import_a_format(module: str) -> None:
    """Arrows point down: formats -> core -> checker; a format plugs in via load(app)."""
    assert not {t for t in _imports(module, top_level_only=False)
                if _under(t, "answerdesk.formats")}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (or a self-import)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_no_import_cycles() -> None:
    """Module-level imports between answerdesk's modules form no circle (a function's
    own late import is not part of the graph: it runs after every module loaded)."""
    graph = {m: {t for t in _imports(m, top_level_only=True) if t in MODULES and t != m}
             for m in MODULES}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
